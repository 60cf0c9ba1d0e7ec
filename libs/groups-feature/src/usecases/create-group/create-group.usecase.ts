import { contactId, Errors, type ChatView, type CreateGroupRequest } from '@mapi/contracts';
import type { SessionCommands } from '@mapi/events';
import type { NatsRpcClient } from '@mapi/platform';
import { phoneForNewGroup, storedGroup } from '../../lifecycle/acting-phone';

/**
 * POST /chats/create: the acting phone (x-phone, or the first-created connected phone within the
 * token's scope) creates the group on the network, with the participants and options given. The
 * answer is the new group as GET /chats/{chat_id} answers it, once the connector's groups upsert has
 * reached the chats store (its settings are known). The network's own notifications (create, add) follow through ingestion.
 */
export class CreateGroup {
  constructor(
    private readonly sessions: SessionCommands,
    private readonly rpc: NatsRpcClient,
  ) {}

  async execute({ ctx, body }: CreateGroupRequest): Promise<ChatView> {
    const phone = await phoneForNewGroup(this.rpc, ctx);
    const o = body.options ?? {};
    const answer = await this.sessions.require(phone.phone_id, {
      cmd: 'group-create',
      subject: body.group_name,
      participants: [...new Set(body.participants.map(contactId))].filter((p) => p !== phone.org_phone),
      settings: {
        description: o.description,
        announce: o.messagesAdminsOnly,
        restrict: o.infoAdminsOnly,
        member_add_admins_only: o.addMembersAdminsOnly,
      },
    });
    if (!answer.group) throw Errors.phoneUnavailable('The network did not say which group it created');
    // The group's settings are known once the connector's groups upsert is stored: before it, the
    // chat can already exist from a member phone's notification with none of them (seen under load).
    // Once stored, the chat view takes them from that copy whichever copy is most active.
    return storedGroup(
      this.rpc,
      ctx,
      phone,
      answer.group.chat_id,
      (chat) => chat.add_members_admins_only !== null && chat.messages_admins_only !== null && chat.info_admins_only !== null,
    );
  }
}
