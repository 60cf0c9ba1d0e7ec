import type { ListAllMessagesRequest, ListAllMessagesResponse, Message } from '@mapi/contracts';
import { pagePositions } from '@mapi/contracts';
import { chatReach } from '../../chats/chat-reach';
import { mapMessage } from '../../messages/map-message';
import type { AllMessagesRepository } from '../../repositories/all-messages-repository';
import type { MessageRepository } from '../../repositories/message-repository';
import { SQL_BUILT_PAGES_FROM } from '../list-chat-messages/list-chat-messages.usecase';

/**
 * GET /chats/messages: the messages of every chat within reach, newest first, paged and narrowed as
 * GET /chats/{chat_id}/messages (spec 4.1) is: each phone's copy is its own entry; a member's session
 * only the chats they may see (chats/chat-reach.ts). As GET messages does, pages asked with a limit
 * over SQL_BUILT_PAGES_FROM come from Postgres already in the spec's shape (AllMessagesRepository:
 * parsed, not revived and mapped); smaller ones are read as stored rows and mapped, where Postgres's
 * longer statement costs as much as the mapping it saves.
 */
export class ListAllMessages {
  constructor(
    private readonly messages: MessageRepository,
    private readonly built: AllMessagesRepository,
  ) {}

  async execute({ ctx, query }: ListAllMessagesRequest): Promise<ListAllMessagesResponse> {
    const page = { ...chatReach(ctx), start: query.start_time, end: query.end_time, offset: query.offset, limit: query.limit };
    const messages: Message[] = query.limit > SQL_BUILT_PAGES_FROM
      ? await this.built.list(ctx.org_id, page)
      : (await this.messages.listAll(ctx.org_id, page)).map(mapMessage);
    return { ...pagePositions(query.offset, messages.length), messages };
  }
}
