import { z } from 'zod';
import { ChatIdSchema } from '../../common/ids';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';

export const ReadChatParams = z.object({ chat_id: ChatIdSchema });

export const ReadChatRpc = defineRpc({
  subject: 'chats.v1.chats.read',
  service: 'chats',
  request: z.object({ ctx: RequestContextSchema, params: ReadChatParams }),
  /** No content: the public client types this answer as 200 with `void`. */
  response: z.null(),
});
export type ReadChatRequest = z.infer<typeof ReadChatRpc.request>;

export const ReadChatRoute = defineRoute({
  operationId: 'markRead',
  method: 'POST',
  path: '/chats/{chat_id}/read',
  tag: 'chats',
  summary: 'Mark a chat as read',
  description:
    "Sets the unread count of the chat to 0 on the x-phone phone, or on every phone within the token's reach. " +
    "Answers 200 with no content (the public client's type is void). Recorded here only: no read receipt is sent " +
    'to the network. A chat no phone within reach has is 404 NOT_FOUND_ERROR.',
  params: ReadChatParams,
  phone: 'optional',
  rpc: ReadChatRpc,
  successStatus: 200,
});
