import { pagePositions, splitMessageId, type ListReactionsRequest, type ListReactionsResponse } from '@mapi/contracts';
import { chatReach } from '../../rows/chat-reach';
import { mapReaction } from '../../messages/map-reaction';
import type { ReactionRepository } from '../../repositories/reaction-repository';

/** `<from_me>_<chat_id>_<unique_id>` → what mapReaction needs of the message reacted to. */
function reactedMessage(messageId: string): { from_me: boolean; unique_id: string } {
  const parts = splitMessageId(messageId);
  return {
    from_me: parts?.from_me ?? messageId.startsWith('true_'),
    unique_id: parts?.unique_id ?? messageId.slice(messageId.lastIndexOf('_') + 1),
  };
}

/** GET /reactions: the reactions within reach, newest first, narrowed and paged like GET /chats/messages. */
export class ListReactions {
  constructor(private readonly reactions: ReactionRepository) {}

  async execute({ ctx, query }: ListReactionsRequest): Promise<ListReactionsResponse> {
    const rows = await this.reactions.list(ctx.org_id, {
      ...chatReach(ctx),
      chatId: query.chat_id,
      messageId: query.message_id,
      start: query.start_time,
      end: query.end_time,
      offset: query.offset,
      limit: query.limit,
    });
    return {
      ...pagePositions(query.offset, rows.length),
      start_time: query.start_time ?? null,
      end_time: query.end_time ?? null,
      reactions: rows.map((r) => mapReaction(r, reactedMessage(r.message_id), r.org_phone ?? '')),
    };
  }
}
