import type { SessionAnswer, SessionCommand } from '@mapi/contracts';
import type { PhoneConnector } from '../connector/phone-connector';

type GroupCommand = Extract<
  SessionCommand,
  { cmd: 'group-create' | 'group-invite-code' | 'group-settings' | 'group-accept-invite' | 'group-leave' }
>;

/** The group lifecycle commands, answered through the connector (the session manager checked it is connected). */
export async function groupCommand(connector: PhoneConnector, command: GroupCommand): Promise<SessionAnswer> {
  switch (command.cmd) {
    case 'group-create': {
      const group = await connector.groupCreate(command.subject, command.participants, command.settings);
      return { ok: true, group: { chat_id: group.chat_id } };
    }
    case 'group-invite-code':
      return { ok: true, invite_code: await connector.groupInviteCode(command.chat_id) };
    case 'group-settings':
      await connector.groupSettingsUpdate(command.chat_id, command.settings);
      return { ok: true };
    case 'group-accept-invite':
      return { ok: true, group: { chat_id: await connector.groupAcceptInvite(command.invite_code) } };
    case 'group-leave':
      await connector.groupLeave(command.chat_id);
      return { ok: true };
  }
}
