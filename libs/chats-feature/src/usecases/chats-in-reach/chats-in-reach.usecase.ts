import type { ChatsInReachRequest } from '@mapi/contracts';
import { chatReach } from '../../rows/chat-reach';
import type { ChatPropertiesRepository } from '../../repositories/chat-properties-repository';
import type { ReachRepository } from '../../repositories/reach-repository';

/**
 * chats.v1.chat.in-reach (internal): which of the given chats no phone within the caller's reach
 * holds; for a member, outside their labels and overrides too (chat-reach.ts). `to_send`: a member
 * who sees every label may also start a chat their phones do not hold yet (unless denied to them).
 */
export class ChatsInReach {
  constructor(
    private readonly properties: ChatPropertiesRepository,
    private readonly reach: ReachRepository,
  ) {}

  async execute({ ctx, body }: ChatsInReachRequest): Promise<{ missing: string[] }> {
    const reach = chatReach(ctx);
    const missing = await this.properties.missing(ctx.org_id, body.chat_ids, reach.phoneIds, reach.member);
    if (!body.to_send || !missing.length || !reach.member) return { missing };
    const startable = new Set(await this.reach.startable(ctx.org_id, reach, missing));
    return { missing: missing.filter((id) => !startable.has(id)) };
  }
}
