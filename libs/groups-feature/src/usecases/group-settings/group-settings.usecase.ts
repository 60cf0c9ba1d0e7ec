import type { ChatView, GroupSettingsRequest } from '@mapi/contracts';
import type { SessionCommands } from '@mapi/events';
import type { NatsRpcClient } from '@mapi/platform';
import { phoneForGroup, storedGroup } from '../../lifecycle/acting-phone';

/**
 * POST /chats/{chat_id}/settings: changes the group's name, description and admin-only settings
 * through x-phone or an admin phone of the group. Answers the group as GET /chats/{chat_id} does,
 * once the chats store has the new settings. 404 for a group no phone within reach has.
 */
export class GroupSettingsUpdate {
  constructor(
    private readonly sessions: SessionCommands,
    private readonly rpc: NatsRpcClient,
  ) {}

  async execute({ ctx, params, body }: GroupSettingsRequest): Promise<ChatView> {
    const phone = await phoneForGroup(this.rpc, ctx, params.chat_id, true);
    await this.sessions.require(phone.phone_id, {
      cmd: 'group-settings',
      chat_id: params.chat_id,
      settings: {
        subject: body.name,
        description: body.description,
        announce: body.messagesAdminsOnly,
        restrict: body.infoAdminsOnly,
        member_add_admins_only: body.memberAddMode,
      },
    });
    return storedGroup(
      this.rpc,
      ctx,
      phone,
      params.chat_id,
      (chat) =>
        (body.name === undefined || chat.chat_name === body.name) &&
        (body.description === undefined || chat.group_description === (body.description || null)) &&
        (body.messagesAdminsOnly === undefined || chat.messages_admins_only === body.messagesAdminsOnly) &&
        (body.infoAdminsOnly === undefined || chat.info_admins_only === body.infoAdminsOnly) &&
        (body.memberAddMode === undefined || chat.add_members_admins_only === body.memberAddMode),
    );
  }
}
