import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { ChatViewSchema } from '../chat/chat-view.schema';
import { MAX_PAGE_LIMIT, pageFields, refineTimeRange, timeRangeFields } from '../paging/paging';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A page's cursor: the last chat's activity time and chat_id, base64url JSON (opaque to callers). */
export const encodeChatsCursor = (at: Date, chatId: string): string =>
  Buffer.from(JSON.stringify([at.toISOString(), chatId])).toString('base64url');

/** The position a cursor names, or null when it is not one this API made. */
export function decodeChatsCursor(cursor: string): { at: string; chat_id: string } | null {
  try {
    const v: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (!Array.isArray(v) || v.length !== 2 || typeof v[0] !== 'string' || typeof v[1] !== 'string') return null;
    const [at, chatId] = v as [string, string];
    if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(at) || Number.isNaN(Date.parse(at)) || !chatId || chatId.length > 200) return null;
    return { at, chat_id: chatId };
  } catch {
    return null;
  }
}

/** `true` / `false` in a query string. */
const booleanQuery = (name: string) =>
  z.preprocess((v) => (v === 'true' ? true : v === 'false' ? false : v), z.boolean({ error: `${name} must be true or false` }));

export const ListChatsQuery = z
  .object({
    ...pageFields,
    ...timeRangeFields,
    chat_type: z.enum(['user', 'group', 'business'], { error: 'chat_type must be one of user, group, business' }).optional(),
    /** A label's name (case-insensitive) or label_id: only the chats that carry it (PATCH /chats/labels, PATCH /chats/{chat_id}). */
    label: z.string().trim().min(1, 'label must not be empty').max(100, 'label is at most 100 characters').optional(),
    /** Ours: the chats assigned to this email (any case), or `none`: the chats assigned to no one. */
    assigned_to: z
      .string({ error: 'assigned_to must be a string' })
      .trim()
      .toLowerCase()
      .max(320, 'assigned_to is too long')
      .refine((v) => v === 'none' || EMAIL.test(v), { message: 'assigned_to must be an email address or none' })
      .optional(),
    /** Ours: true keeps the chats with unread messages on a phone in reach; false those without. */
    unread: booleanQuery('unread').optional(),
    /** Ours: true keeps the chats with a flagged message (flag_status) on a phone in reach; false those without. */
    flagged: booleanQuery('flagged').optional(),
    /** Ours: true keeps the chats with a ticket open or in progress (inbox_tickets, on a phone in reach); false those without. */
    open_ticket: booleanQuery('open_ticket').optional(),
    /** Ours: the next page after the one that answered this `next_cursor` (keyset: a chat moving up meanwhile is neither repeated nor skipped). */
    cursor: z
      .string({ error: 'cursor must be a string' })
      .max(400, 'cursor is at most 400 characters')
      .refine((v) => decodeChatsCursor(v) !== null, { message: 'cursor must be a next_cursor that GET /chats answered' })
      .optional(),
    /** Ours: the chats whose name, number (chat id) or contact's name contains this text, or one of whose messages does (by their fts words). */
    search: z
      .string({ error: 'search must be a string' })
      .trim()
      .min(1, 'search must not be empty')
      .max(100, 'search is at most 100 characters')
      .optional(),
  })
  .superRefine(refineTimeRange);

export const ListChatsResponse = z.object({
  from: z.number().int(),
  to: z.number().int(),
  count: z.number().int(),
  chats: z.array(ChatViewSchema),
  /** Ours: `cursor` of the next page; absent when this page is the last (fewer chats than limit), so that page keeps the hosted shape. */
  next_cursor: z.string().optional(),
});
export type ListChatsResponse = z.infer<typeof ListChatsResponse>;

export const ListChatsRpc = defineRpc({
  subject: 'chats.v1.chats.list',
  service: 'chats',
  request: z.object({ ctx: RequestContextSchema, query: ListChatsQuery }),
  response: ListChatsResponse,
});
export type ListChatsRequest = z.infer<typeof ListChatsRpc.request>;

export const ListChatsRoute = defineRoute({
  operationId: 'listAllChats',
  method: 'GET',
  path: '/chats',
  tag: 'chats',
  summary: 'List chats, most recently active first',
  description:
    "One entry per chat id of the organization, narrowed to the x-phone phone or the token's phones. " +
    'Ordered by the newest message (or creation, for a chat without messages), then chat_id. ' +
    'start_time/end_time (inclusive) bound that same activity time. ' +
    `limit defaults to ${MAX_PAGE_LIMIT}, its maximum (inclusive). label keeps the chats carrying that label, named by name or label_id. ` +
    'Extensions of this API (not in the wider API): assigned_to (an email, any case, or none for unassigned chats); ' +
    'unread=true|false (a phone in reach has unread messages in the chat, or none has); flagged=true|false (a message ' +
    'of the chat on a phone in reach is flagged, or none is; flag_count counts them); search (1-100 characters: the ' +
    'chat name, number or contact name contains it, case-insensitive, or a message of the chat on a phone in reach ' +
    'contains its words in that order, as fts holds them); open_ticket=true|false (a ticket of the chat on a phone in reach ' +
    'is open or in progress, or none is); cursor (the next_cursor of the previous page: keyset paging, steady while chats ' +
    "move up). For a console session, member_unread_count is {email: n}: the member's own unread messages (their read " +
    "marks; the phones' unread_count until they first open the chat), and unread=true|false follows it. Every filter given applies (AND).",
  query: ListChatsQuery,
  phone: 'optional',
  rpc: ListChatsRpc,
  successStatus: 200,
  response: ListChatsResponse,
});
