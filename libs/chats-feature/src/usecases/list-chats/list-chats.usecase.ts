import type { ListChatsRequest, ListChatsResponse } from '@mapi/contracts';
import { decodeChatsCursor, encodeChatsCursor, pagePositions } from '@mapi/contracts';
import { chatReach } from '../../rows/chat-reach';
import { toChatViews } from '../../chats/chat-views';
import type { ChatViewRepository } from '../../repositories/chat-view-repository';
import type { MessageRepository } from '../../repositories/message-repository';

/**
 * GET /chats: one entry per chat id of the organization within reach (x-phone, or the token's
 * phones), most recently active first, then chat_id; `label` (a label's name or id) keeps the chats
 * that carry it (chat_labels, written through the inbox service); ours, for the console's inbox:
 * assigned_to, unread, flagged, open_ticket, search and cursor (repositories/chat-view-repository.ts); for a
 * console session unread and member_unread_count are the member's own (read marks, decision 0091). A member's session sees only the
 * chats of their labels, with the per-chat overrides applied (rows/chat-reach.ts).
 */
export class ListChats {
  constructor(
    private readonly chats: ChatViewRepository,
    private readonly messages: MessageRepository,
  ) {}

  async execute({ ctx, query }: ListChatsRequest): Promise<ListChatsResponse> {
    const rows = await this.chats.list(ctx.org_id, {
      ...chatReach(ctx),
      chatType: query.chat_type,
      start: query.start_time,
      end: query.end_time,
      label: query.label,
      assignedTo: query.assigned_to,
      unread: query.unread,
      flagged: query.flagged,
      search: query.search,
      openTicket: query.open_ticket,
      readerId: ctx.member?.member_id ?? null,
      after: query.cursor === undefined ? undefined : (decodeChatsCursor(query.cursor) ?? undefined),
      offset: query.offset,
      limit: query.limit,
    });
    const chats = await toChatViews(ctx.org_id, rows, this.chats, this.messages, ctx.member?.email.toLowerCase() ?? null);
    const last = rows.at(-1);
    // Only when a page may follow: the last page keeps the hosted shape ({from, to, count, chats}).
    const more = last && rows.length === query.limit;
    return {
      ...pagePositions(query.offset, chats.length),
      chats,
      ...(more ? { next_cursor: encodeChatsCursor(last.activity_at, last.chat_id) } : {}),
    };
  }
}
