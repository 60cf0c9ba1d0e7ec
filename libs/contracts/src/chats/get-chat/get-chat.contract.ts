import { z } from 'zod';
import { ChatIdSchema } from '../../common/ids';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { ChatViewSchema } from '../chat/chat-view.schema';

export const GetChatParams = z.object({ chat_id: ChatIdSchema });

export const GetChatRpc = defineRpc({
  subject: 'chats.v1.chats.get',
  service: 'chats',
  request: z.object({ ctx: RequestContextSchema, params: GetChatParams }),
  response: ChatViewSchema,
});
export type GetChatRequest = z.infer<typeof GetChatRpc.request>;

export const GetChatRoute = defineRoute({
  operationId: 'getChatById',
  method: 'GET',
  path: '/chats/{chat_id}',
  tag: 'chats',
  summary: 'Get one chat',
  description:
    "The chat as GET /chats lists it. A chat that no phone within reach (x-phone, or the token's phones) has — " +
    "missing, or another organization's — is 404 NOT_FOUND_ERROR, the same answer in every case.",
  params: GetChatParams,
  phone: 'optional',
  rpc: GetChatRpc,
  successStatus: 200,
  response: ChatViewSchema,
});
