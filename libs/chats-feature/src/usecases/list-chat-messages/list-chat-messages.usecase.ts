import { pagePositions, type ListChatMessagesRequest, type ListChatMessagesResponse, type ReadyJson } from '@mapi/contracts';
import { chatReach } from '../../rows/chat-reach';
import { mapMessage } from '../../messages/map-message';
import { SQL_BUILT_PAGES_FROM, readyMessagesPage } from '../../messages/ready-messages-page';
import type { MessageRepository } from '../../repositories/message-repository';

/**
 * GET /chats/{chat_id}/messages (spec 4.1): a page of the chat's messages, newest first. With
 * x-phone, only that phone's copies; without, every phone the token reaches (the token's phones,
 * or all of the organization's when unscoped). A member's session: only a chat they may see
 * (labels, overrides: rows/chat-reach.ts), else an empty page as for a chat out of reach. `from`/`to` are 1-based positions of the first and
 * last message returned; `count` is how many were returned.
 *
 * Pages asked with a limit over SQL_BUILT_PAGES_FROM are Postgres's texts joined (readyMessagesPage,
 * ReadyJson sent as it is); smaller ones are read as stored rows and mapped (ready-messages-page.ts says why).
 */
export class ListChatMessages {
  constructor(private readonly messages: MessageRepository) {}

  async execute({ ctx, params, query }: ListChatMessagesRequest): Promise<ListChatMessagesResponse | ReadyJson<ListChatMessagesResponse>> {
    const page = { chatId: params.chat_id, ...chatReach(ctx), offset: query.offset, limit: query.limit };
    if (query.limit > SQL_BUILT_PAGES_FROM) return readyMessagesPage(query.offset, await this.messages.listByChatReady(ctx.org_id, page));
    const messages = (await this.messages.listByChat(ctx.org_id, page)).map(mapMessage);
    return { ...pagePositions(query.offset, messages.length), messages };
  }
}
