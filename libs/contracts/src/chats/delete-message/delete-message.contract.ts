import { z } from 'zod';
import { defineRpc } from '../../rpc/define-rpc';
import { messageActionRequest, messageActionRoute } from '../message-ref/message-ref';

export const DeleteMessageRpc = defineRpc({
  subject: 'chats.v1.message.delete',
  service: 'chats',
  request: messageActionRequest({}),
  response: z.null(),
});
export type DeleteMessageRequest = z.infer<typeof DeleteMessageRpc.request>;

export const DeleteMessageRoute = messageActionRoute({
  name: 'delete',
  operationId: 'deleteMessage',
  summary: 'Delete a message the phone sent, for everyone',
  description:
    'Deletes the message for everyone on the network; it stays listed with is_deleted true, and message.deleted fires. ' +
    "Another person's message is 422 naming message_id; a message already deleted answers 204 again and changes nothing.",
  rpc: DeleteMessageRpc,
});
