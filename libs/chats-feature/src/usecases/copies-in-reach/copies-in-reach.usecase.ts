import type { ChatCopiesInReachRequest, ChatCopy } from '@mapi/contracts';
import { chatReach } from '../../rows/chat-reach';
import type { ReachRepository } from '../../repositories/reach-repository';

/** chats.v1.chat.copies-in-reach (internal): the given (phone, chat) copies within the caller's reach. */
export class CopiesInReach {
  constructor(private readonly reach: ReachRepository) {}

  async execute({ ctx, body }: ChatCopiesInReachRequest): Promise<{ reached: ChatCopy[] }> {
    return { reached: await this.reach.copies(ctx.org_id, chatReach(ctx), body.copies) };
  }
}
