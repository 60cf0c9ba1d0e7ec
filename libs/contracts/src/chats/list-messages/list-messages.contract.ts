import { z } from 'zod';
import { ChatIdSchema } from '../../common/ids';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { MessageSchema } from '../message/message.schema';

/**
 * Largest accepted `limit`, inclusive. The spec's default (2000) must itself be valid, so a limit of
 * 2000 is accepted and anything above it is a 422 (docs/decisions.md).
 */
export const MAX_MESSAGES_LIMIT = 2000;

const intFromQuery = (name: string, min: number, max?: number) => {
  let n = z.coerce.number({ error: `${name} must be a number` }).int(`${name} must be a whole number`).min(min, `${name} should be at least ${min}`);
  if (max !== undefined) n = n.max(max, `${name} should be less than or equal to ${max}`);
  // Plain decimal notation only: '0x10', '1e3' or '' are not numbers here.
  return z.preprocess((v) => (typeof v === 'string' && !/^-?\d+(\.\d+)?$/.test(v.trim()) ? Number.NaN : v), n);
};

export const ListChatMessagesParams = z.object({ chat_id: ChatIdSchema });
export const ListChatMessagesQuery = z.object({
  offset: intFromQuery('offset', 0).default(0),
  limit: intFromQuery('limit', 1, MAX_MESSAGES_LIMIT).default(MAX_MESSAGES_LIMIT),
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
    'Without x-phone, messages of the chat across every phone the token reaches; with x-phone, only that phone\'s. ' +
    `limit defaults to ${MAX_MESSAGES_LIMIT}, its maximum (inclusive).`,
  params: ListChatMessagesParams,
  query: ListChatMessagesQuery,
  phone: 'optional',
  rpc: ListChatMessagesRpc,
  successStatus: 200,
  response: ListChatMessagesResponse,
});
