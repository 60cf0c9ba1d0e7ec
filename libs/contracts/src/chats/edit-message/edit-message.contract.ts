import { z } from 'zod';
import { defineRpc } from '../../rpc/define-rpc';
import { messageActionRequest, messageActionRoute } from '../message-ref/message-ref';

export const EditMessageBody = z.object({
  edited_body: z.string().min(1, 'edited_body must not be empty').max(65_536, 'edited_body is too long'),
});
export const EditMessageRpc = defineRpc({
  subject: 'chats.v1.message.edit',
  service: 'chats',
  request: messageActionRequest({ body: EditMessageBody }),
  response: z.null(),
});
export type EditMessageRequest = z.infer<typeof EditMessageRpc.request>;

export const EditMessageRoute = messageActionRoute({
  name: 'edit',
  operationId: 'editMessage',
  summary: 'Edit a message the phone sent',
  description:
    'Replaces the body of a text message (the caption of a media message) the phone sent, within 15 minutes of sending. ' +
    'The message keeps the old body as prev_body, and message.updated fires with it in previous_attributes. Another ' +
    "person's message, a poll, a deleted message, or one older than 15 minutes is 422 naming message_id.",
  rpc: EditMessageRpc,
  body: EditMessageBody,
});
