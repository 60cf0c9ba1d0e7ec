import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { MessageSchema } from '../message/message.schema';
import { MAX_PAGE_LIMIT, pageFields, refineTimeRange, timeRangeFields } from '../paging/paging';

export const ListAllMessagesQuery = z.object({ ...pageFields, ...timeRangeFields }).superRefine(refineTimeRange);

export const ListAllMessagesResponse = z.object({
  from: z.number().int(),
  to: z.number().int(),
  count: z.number().int(),
  messages: z.array(MessageSchema),
});
export type ListAllMessagesResponse = z.infer<typeof ListAllMessagesResponse>;

export const ListAllMessagesRpc = defineRpc({
  subject: 'chats.v1.messages.list-all',
  service: 'chats',
  request: z.object({ ctx: RequestContextSchema, query: ListAllMessagesQuery }),
  response: ListAllMessagesResponse,
});
export type ListAllMessagesRequest = z.infer<typeof ListAllMessagesRpc.request>;

export const ListAllMessagesRoute = defineRoute({
  operationId: 'listAllMessages',
  method: 'GET',
  path: '/chats/messages',
  tag: 'chats',
  summary: 'List messages of every chat, newest first',
  description:
    "As GET /chats/{chat_id}/messages, across every chat: each phone's copy of a message is its own entry, " +
    "narrowed to the x-phone phone or the token's phones. start_time/end_time (inclusive) bound the message timestamp. " +
    `limit defaults to ${MAX_PAGE_LIMIT}, its maximum (inclusive).`,
  query: ListAllMessagesQuery,
  phone: 'optional',
  rpc: ListAllMessagesRpc,
  successStatus: 200,
  response: ListAllMessagesResponse,
});
