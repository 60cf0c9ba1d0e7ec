import type { ChatsInReachRequest } from '@mapi/contracts';
import { phonesInReach } from '../../chats/chat-views';
import type { ChatPropertiesRepository } from '../../repositories/chat-properties-repository';

/** chats.v1.chat.in-reach (internal): which of the given chats no phone within the caller's reach holds. */
export class ChatsInReach {
  constructor(private readonly properties: ChatPropertiesRepository) {}

  async execute({ ctx, body }: ChatsInReachRequest): Promise<{ missing: string[] }> {
    return { missing: await this.properties.missing(ctx.org_id, body.chat_ids, phonesInReach(ctx)) };
  }
}
