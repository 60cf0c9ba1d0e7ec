import { z } from 'zod';
import { defineRpc } from '../../rpc/define-rpc';
import { messageActionRequest, messageActionRoute } from '../message-ref/message-ref';

export const PinMessageBody = z.object({ pin: z.boolean() });
export const PinMessageRpc = defineRpc({ subject: 'chats.v1.message.pin', service: 'chats', request: messageActionRequest({ body: PinMessageBody }), response: z.null() });
export type PinMessageRequest = z.infer<typeof PinMessageRpc.request>;

export const PinMessageRoute = messageActionRoute({
  name: 'pin',
  operationId: 'pinMessage',
  summary: 'Pin or unpin a message in its chat',
  description:
    'Pins (pin true, for 7 days, the network\'s default) or unpins the message in its chat on the network. The pin is an ' +
    'action on the network only: the message object has no pin field, and chats do not record pinned messages yet. ' +
    'A deleted message is 422 naming message_id.',
  rpc: PinMessageRpc,
  body: PinMessageBody,
});
