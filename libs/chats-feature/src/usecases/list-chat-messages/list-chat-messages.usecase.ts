import { ReadyJson, type ListChatMessagesRequest, type ListChatMessagesResponse } from '@mapi/contracts';
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
 * Pages asked with a limit over SQL_BUILT_PAGES_FROM come from Postgres already written as
 * JSON.stringify writes the spec's message objects (message-api-sql.ts, mapMessage's SQL twin): the
 * answer is their texts joined (ReadyJson), sent as it is — neither revived, mapped, parsed nor
 * stringified here (docs/decisions.md). Smaller ones are read as stored rows and mapped: there
 * Postgres's longer statement (~0.3 ms more per query, parsing and planning 53 expressions) cost as
 * much as the mapping it saves (docs/benchmarks.md, "Round 3").
 */
export const SQL_BUILT_PAGES_FROM = 100;

export class ListChatMessages {
  constructor(private readonly messages: MessageRepository) {}

  async execute({ ctx, params, query }: ListChatMessagesRequest): Promise<ListChatMessagesResponse | ReadyJson<ListChatMessagesResponse>> {
    const page = { chatId: params.chat_id, ...chatReach(ctx), offset: query.offset, limit: query.limit };
    if (query.limit > SQL_BUILT_PAGES_FROM) {
      const texts = await this.messages.listByChatReady(ctx.org_id, page);
      const { from, to, count } = numbering(query.offset, texts.length);
      // JSON.stringify's bytes for { from, to, count, messages }: the same keys in the same order, no spaces
      return new ReadyJson(`{"from":${from},"to":${to},"count":${count},"messages":[${texts.join(',')}]}`);
    }
    const messages = (await this.messages.listByChat(ctx.org_id, page)).map(mapMessage);
    return { ...numbering(query.offset, messages.length), messages };
  }
}

/** `from`/`to`: 1-based positions of the first and last message returned (from = to = offset for an empty page). */
function numbering(offset: number, count: number): { from: number; to: number; count: number } {
  return { from: count ? offset + 1 : offset, to: offset + count, count };
}
