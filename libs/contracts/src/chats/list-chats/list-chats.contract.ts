import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { ChatViewSchema } from '../chat/chat-view.schema';
import { MAX_PAGE_LIMIT, pageFields, refineTimeRange, timeRangeFields } from '../paging/paging';

export const ListChatsQuery = z
  .object({
    ...pageFields,
    ...timeRangeFields,
    chat_type: z.enum(['user', 'group', 'business'], { error: 'chat_type must be one of user, group, business' }).optional(),
    /** A label's name (case-insensitive) or label_id: only the chats that carry it (PATCH /chats/labels, PATCH /chats/{chat_id}). */
    label: z.string().trim().min(1, 'label must not be empty').max(100, 'label is at most 100 characters').optional(),
  })
  .superRefine(refineTimeRange);

export const ListChatsResponse = z.object({
  from: z.number().int(),
  to: z.number().int(),
  count: z.number().int(),
  chats: z.array(ChatViewSchema),
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
    'One entry per chat id of the organization, narrowed to the x-phone phone or the token\'s phones. ' +
    'Ordered by the newest message (or creation, for a chat without messages), then chat_id. ' +
    'start_time/end_time (inclusive) bound that same activity time. ' +
    `limit defaults to ${MAX_PAGE_LIMIT}, its maximum (inclusive). label keeps the chats carrying that label, named by name or label_id.`,
  query: ListChatsQuery,
  phone: 'optional',
  rpc: ListChatsRpc,
  successStatus: 200,
  response: ListChatsResponse,
});
