import type { ListChatMessagesRequest, ListChatMessagesResponse } from '@mapi/contracts';
import { chatReach } from '../../chats/chat-reach';
import { mapMessage } from '../../messages/map-message';
import type { MessageRepository } from '../../repositories/message-repository';

/**
 * GET /chats/{chat_id}/messages (spec 4.1): a page of the chat's messages, newest first. With
 * x-phone, only that phone's copies; without, every phone the token reaches (the token's phones,
 * or all of the organization's when unscoped). A member's session: only a chat they may see
 * (labels, overrides: chats/chat-reach.ts), else an empty page as for a chat out of reach. `from`/`to` are 1-based positions of the first and
 * last message returned; `count` is how many were returned.
 */
export class ListChatMessages {
  constructor(private readonly messages: MessageRepository) {}

  async execute({ ctx, params, query }: ListChatMessagesRequest): Promise<ListChatMessagesResponse> {
    const rows = await this.messages.listByChat(ctx.org_id, {
      chatId: params.chat_id,
      ...chatReach(ctx),
      offset: query.offset,
      limit: query.limit,
    });
    const count = rows.length;
    return {
      from: count ? query.offset + 1 : query.offset,
      to: query.offset + count,
      count,
      messages: rows.map(mapMessage),
    };
  }
}
