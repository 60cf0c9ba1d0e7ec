import { z } from 'zod';
import { ChatIdSchema } from '../../common/ids';
import { defineRpc } from '../../rpc/define-rpc';
import { messageActionRequest, messageActionRoute } from '../message-ref/message-ref';

export const MAX_FORWARD_CHATS = 100;
export const ForwardMessageBody = z.object({
  forward_chat_ids: z
    .array(ChatIdSchema)
    .min(1, 'forward_chat_ids needs at least one chat')
    .max(MAX_FORWARD_CHATS, `forward_chat_ids takes at most ${MAX_FORWARD_CHATS} chats`),
});
export const ForwardMessageRpc = defineRpc({
  subject: 'chats.v1.message.forward',
  service: 'chats',
  request: messageActionRequest({ body: ForwardMessageBody, headers: z.record(z.string(), z.string()).optional() }),
  response: z.null(),
});
export type ForwardMessageRequest = z.infer<typeof ForwardMessageRpc.request>;

export const ForwardMessageRoute = messageActionRoute({
  name: 'forward',
  operationId: 'forwardMessage',
  summary: 'Forward a message to other chats',
  description:
    'The phone forwards the message (its text, or its media with the caption) to each chat of forward_chat_ids ' +
    `(at most ${MAX_FORWARD_CHATS}; a chat named twice gets it once). Each forwarded copy appears in its chat with ` +
    'is_forwarded true and fires message.created. With an Idempotency-Key header, a retried request forwards nothing twice. ' +
    'A deleted message or a poll is 422 naming message_id.',
  rpc: ForwardMessageRpc,
  body: ForwardMessageBody,
  headers: ['idempotency-key'],
});
