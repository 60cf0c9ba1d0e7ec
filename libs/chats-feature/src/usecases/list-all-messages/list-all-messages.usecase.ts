import type { ListAllMessagesRequest, ListAllMessagesResponse } from '@mapi/contracts';
import { pagePositions } from '@mapi/contracts';
import { chatReach } from '../../chats/chat-reach';
import type { AllMessagesRepository } from '../../repositories/all-messages-repository';

/**
 * GET /chats/messages: the messages of every chat within reach, newest first, paged and narrowed as
 * GET /chats/{chat_id}/messages (spec 4.1) is: each phone's copy is its own entry; a member's session
 * only the chats they may see (chats/chat-reach.ts). Postgres builds each message object
 * (AllMessagesRepository), so the service only parses them.
 */
export class ListAllMessages {
  constructor(private readonly messages: AllMessagesRepository) {}

  async execute({ ctx, query }: ListAllMessagesRequest): Promise<ListAllMessagesResponse> {
    const messages = await this.messages.list(ctx.org_id, {
      ...chatReach(ctx),
      start: query.start_time,
      end: query.end_time,
      offset: query.offset,
      limit: query.limit,
    });
    return { ...pagePositions(query.offset, messages.length), messages };
  }
}
