import { pagePositions, type ListAllMessagesRequest, type ListAllMessagesResponse, type ReadyJson } from '@mapi/contracts';
import { chatReach } from '../../rows/chat-reach';
import { mapMessage } from '../../messages/map-message';
import { SQL_BUILT_PAGES_FROM, readyMessagesPage } from '../../messages/ready-messages-page';
import type { MessageRepository } from '../../repositories/message-repository';

/**
 * GET /chats/messages: the messages of every chat within reach, newest first, paged and narrowed as
 * GET /chats/{chat_id}/messages (spec 4.1) is: each phone's copy is its own entry; a member's session
 * only the chats they may see (rows/chat-reach.ts). As GET messages does, pages asked with a limit
 * over SQL_BUILT_PAGES_FROM come from Postgres already written as JSON.stringify writes the messages
 * (MessageRepository.listAllReady) and the answer is their texts joined (readyMessagesPage: no revive,
 * map, parse or stringify of the page here); smaller ones are read as stored rows and mapped.
 */
export class ListAllMessages {
  constructor(private readonly messages: MessageRepository) {}

  async execute({ ctx, query }: ListAllMessagesRequest): Promise<ListAllMessagesResponse | ReadyJson<ListAllMessagesResponse>> {
    const page = { ...chatReach(ctx), start: query.start_time, end: query.end_time, offset: query.offset, limit: query.limit };
    if (query.limit > SQL_BUILT_PAGES_FROM) return readyMessagesPage(query.offset, await this.messages.listAllReady(ctx.org_id, page));
    const messages = (await this.messages.listAll(ctx.org_id, page)).map(mapMessage);
    return { ...pagePositions(query.offset, messages.length), messages };
  }
}
