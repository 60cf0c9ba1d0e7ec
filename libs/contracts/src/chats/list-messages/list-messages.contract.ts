import { z } from 'zod';
import { ChatIdSchema } from '../../common/ids';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { MessageSchema } from '../message/message.schema';
import { MAX_PAGE_LIMIT, pageFields } from '../paging/paging';

/** Largest accepted `limit` of GET messages, inclusive (see paging.ts). */
export const MAX_MESSAGES_LIMIT = MAX_PAGE_LIMIT;

export const ListChatMessagesParams = z.object({ chat_id: ChatIdSchema });
export const ListChatMessagesQuery = z.object({
  ...pageFields,
});

export const ListChatMessagesResponse = z.object({
  from: z.number().int(),
  to: z.number().int(),
  count: z.number().int(),
  messages: z.array(MessageSchema),
});
export type ListChatMessagesResponse = z.infer<typeof ListChatMessagesResponse>;

export const ListChatMessagesRpc = defineRpc({
  subject: 'chats.v1.messages.list',
  service: 'chats',
  request: z.object({
    ctx: RequestContextSchema,
    params: ListChatMessagesParams,
    query: ListChatMessagesQuery,
  }),
  response: ListChatMessagesResponse,
});
export type ListChatMessagesRequest = z.infer<typeof ListChatMessagesRpc.request>;

export const ListChatMessagesRoute = defineRoute({
  operationId: 'listChatMessages',
  method: 'GET',
  path: '/chats/{chat_id}/messages',
  tag: 'chats',
  summary: 'List messages of a chat, newest first',
  description:
    "Without x-phone, messages of the chat across every phone the token reaches; with x-phone, only that phone's. " +
    `limit defaults to ${MAX_MESSAGES_LIMIT}, its maximum (inclusive).`,
  params: ListChatMessagesParams,
  query: ListChatMessagesQuery,
  phone: 'optional',
  rpc: ListChatMessagesRpc,
  successStatus: 200,
  response: ListChatMessagesResponse,
});
