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
    /** A label name or id. Labels do not exist yet (team-inbox issue): no chat has one, so a label matches nothing. */
    label: z.string().min(1, 'label must not be empty').optional(),
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
    `limit defaults to ${MAX_PAGE_LIMIT}, its maximum (inclusive). label matches nothing until labels exist.`,
  query: ListChatsQuery,
  phone: 'optional',
  rpc: ListChatsRpc,
  successStatus: 200,
  response: ListChatsResponse,
});
