import type { SessionAnswer, SessionCommand } from '@mapi/contracts';
import type { PhoneConnector } from '../connector/phone-connector';

export type MessageCommand = Extract<
  SessionCommand,
  { cmd: 'message-edit' | 'message-delete' | 'message-react' | 'message-pin' | 'message-forward' }
>;

/** A message action through the phone's connector (the session manager checked the phone is connected). */
export async function answerMessageCommand(connector: PhoneConnector, command: MessageCommand): Promise<SessionAnswer> {
  switch (command.cmd) {
    case 'message-edit':
      await connector.editMessage(command.key, command.body);
      return { ok: true };
    case 'message-delete':
      await connector.deleteMessage(command.key);
      return { ok: true };
    case 'message-react':
      await connector.reactToMessage(command.key, command.reaction);
      return { ok: true };
    case 'message-pin':
      await connector.pinMessage(command.key, command.pin);
      return { ok: true };
    case 'message-forward':
      return { ok: true, sent: await connector.forwardMessage(command.key, command.chat_id, command.content, command.sent_message_id) };
  }
}
