import type { LeaveGroupRequest } from '@mapi/contracts';
import type { SessionCommands } from '@mapi/events';
import type { NatsRpcClient } from '@mapi/platform';
import { phoneForGroup } from '../../lifecycle/acting-phone';

/**
 * POST /chats/{chat_id}/leave: x-phone, or the first-created connected phone within reach that has
 * the group, leaves it. 200 with no content (the public client's type). 404 for a group no phone
 * within reach has; 400 ERROR when the phone is no longer a member (the network's refusal).
 */
export class LeaveGroup {
  constructor(
    private readonly sessions: SessionCommands,
    private readonly rpc: NatsRpcClient,
  ) {}

  async execute({ ctx, params }: LeaveGroupRequest): Promise<null> {
    const phone = await phoneForGroup(this.rpc, ctx, params.chat_id, false);
    await this.sessions.require(phone.phone_id, { cmd: 'group-leave', chat_id: params.chat_id });
    return null;
  }
}
