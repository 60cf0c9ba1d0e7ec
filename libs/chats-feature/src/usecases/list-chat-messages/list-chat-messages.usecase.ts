import type { ListChatMessagesRequest, ListChatMessagesResponse, Message } from '@mapi/contracts';
import { chatReach } from '../../chats/chat-reach';
import { mapMessage } from '../../messages/map-message';
import type { MessageRepository } from '../../repositories/message-repository';

/**
 * GET /chats/{chat_id}/messages (spec 4.1): a page of the chat's messages, newest first. With
 * x-phone, only that phone's copies; without, every phone the token reaches (the token's phones,
 * or all of the organization's when unscoped). A member's session: only a chat they may see
 * (labels, overrides: chats/chat-reach.ts), else an empty page as for a chat out of reach. `from`/`to` are 1-based positions of the first and
 * last message returned; `count` is how many were returned.
 *
 * Pages asked with a limit over SQL_BUILT_PAGES_FROM come from Postgres already in the spec's shape
 * (message-api-sql.ts, mapMessage's SQL twin): parsed, not revived and mapped. Smaller ones are read
 * as stored rows and mapped: there Postgres's longer statement (~0.3 ms more per query, parsing and
 * planning 53 expressions) cost as much as the mapping it saves (docs/benchmarks.md, "Round 3").
 */
export const SQL_BUILT_PAGES_FROM = 100;

export class ListChatMessages {
  constructor(private readonly messages: MessageRepository) {}

  async execute({ ctx, params, query }: ListChatMessagesRequest): Promise<ListChatMessagesResponse> {
    const page = { chatId: params.chat_id, ...chatReach(ctx), offset: query.offset, limit: query.limit };
    const messages: Message[] = query.limit > SQL_BUILT_PAGES_FROM
      ? (await this.messages.listByChatJson(ctx.org_id, page)).map((text) => JSON.parse(text) as Message)
      : (await this.messages.listByChat(ctx.org_id, page)).map(mapMessage);
    const count = messages.length;
    return {
      from: count ? query.offset + 1 : query.offset,
      to: query.offset + count,
      count,
      messages,
    };
  }
}
