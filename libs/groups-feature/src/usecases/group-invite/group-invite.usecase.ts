import { Errors, type GroupInviteRequest } from '@mapi/contracts';
import type { SessionCommands } from '@mapi/events';
import type { NatsRpcClient } from '@mapi/platform';
import { phoneForGroup } from '../../lifecycle/acting-phone';

export const INVITE_LINK_BASE = 'https://chat.whatsapp.com/';

/**
 * POST /chats/{chat_id}/invite: a new invite link for the group (the earlier one stops working),
 * made by x-phone or an admin phone of the group chosen by the shared rule. 404 for a group no phone
 * within reach has; 400 ERROR when the network refuses (e.g. the phone is not an admin).
 */
export class GroupInvite {
  constructor(
    private readonly sessions: SessionCommands,
    private readonly rpc: NatsRpcClient,
  ) {}

  async execute({ ctx, params }: GroupInviteRequest): Promise<{ invite_link: string }> {
    const phone = await phoneForGroup(this.rpc, ctx, params.chat_id, true);
    const answer = await this.sessions.require(phone.phone_id, { cmd: 'group-invite-code', chat_id: params.chat_id });
    if (!answer.invite_code) throw Errors.phoneUnavailable('The network gave no invite code');
    return { invite_link: `${INVITE_LINK_BASE}${answer.invite_code}` };
  }
}
