import type { ListChatMessagesRequest, ListChatMessagesResponse, Message } from '@mapi/contracts';
import { chatReach } from '../../chats/chat-reach';
import type { MessageRepository } from '../../repositories/message-repository';

/**
 * GET /chats/{chat_id}/messages (spec 4.1): a page of the chat's messages, newest first. With
 * x-phone, only that phone's copies; without, every phone the token reaches (the token's phones,
 * or all of the organization's when unscoped). A member's session: only a chat they may see
 * (labels, overrides: chats/chat-reach.ts), else an empty page as for a chat out of reach. `from`/`to` are 1-based positions of the first and
 * last message returned; `count` is how many were returned. The messages come from Postgres already
 * in the spec's shape (message-api-sql.ts, mapMessage's SQL twin): parsed, not revived and mapped.
 */
export class ListChatMessages {
  constructor(private readonly messages: MessageRepository) {}

  async execute({ ctx, params, query }: ListChatMessagesRequest): Promise<ListChatMessagesResponse> {
    const texts = await this.messages.listByChatJson(ctx.org_id, {
      chatId: params.chat_id,
      ...chatReach(ctx),
      offset: query.offset,
      limit: query.limit,
    });
    const count = texts.length;
    return {
      from: count ? query.offset + 1 : query.offset,
      to: query.offset + count,
      count,
      messages: texts.map((text) => JSON.parse(text) as Message),
    };
  }
}
