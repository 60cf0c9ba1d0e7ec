import { Errors, type AcceptInviteRequest, type ChatView } from '@mapi/contracts';
import type { SessionCommands } from '@mapi/events';
import type { NatsRpcClient } from '@mapi/platform';
import { phoneForNewGroup, storedGroup } from '../../lifecycle/acting-phone';

/**
 * POST /chats/accept-invite: the acting phone (x-phone, or the first-created connected phone within
 * the token's scope) joins the group of the invite code. Answers the group as GET /chats/{chat_id}
 * does once stored. An unknown or revoked code is the network's refusal: 400 ERROR.
 */
export class AcceptInvite {
  constructor(
    private readonly sessions: SessionCommands,
    private readonly rpc: NatsRpcClient,
  ) {}

  async execute({ ctx, body }: AcceptInviteRequest): Promise<ChatView> {
    const phone = await phoneForNewGroup(this.rpc, ctx);
    const answer = await this.sessions.require(phone.phone_id, { cmd: 'group-accept-invite', invite_code: body.invite_code });
    if (!answer.group) throw Errors.phoneUnavailable('The network did not say which group was joined');
    return storedGroup(this.rpc, ctx, phone, answer.group.chat_id);
  }
}
