import type { CountUnreadChatsRequest } from '@mapi/contracts';
import { chatReach } from '../../rows/chat-reach';
import type { ChatCountsRepository } from '../../repositories/chat-counts-repository';

/**
 * chats.v1.chat.count-unread (internal, asked by analytics for GET /analytics/now): the chat copies within
 * the caller's reach with unread messages; a console session's by their read marks (decision 0091).
 */
export class CountUnreadChats {
  constructor(private readonly counts: ChatCountsRepository) {}

  async execute({ ctx, body }: CountUnreadChatsRequest): Promise<{ count: number }> {
    return { count: await this.counts.unreadChats(ctx.org_id, chatReach(ctx), ctx.member?.member_id ?? null, body.phone_id) };
  }
}
