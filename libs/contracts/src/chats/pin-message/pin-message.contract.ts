import { z } from 'zod';
import { defineRpc } from '../../rpc/define-rpc';
import { messageActionRequest, messageActionRoute } from '../message-ref/message-ref';

export const PinMessageBody = z.object({ pin: z.boolean() });
export const PinMessageRpc = defineRpc({
  subject: 'chats.v1.message.pin',
  service: 'chats',
  request: messageActionRequest({ body: PinMessageBody }),
  response: z.null(),
});
export type PinMessageRequest = z.infer<typeof PinMessageRpc.request>;

export const PinMessageRoute = messageActionRoute({
  name: 'pin',
  operationId: 'pinMessage',
  summary: 'Pin or unpin a message in its chat',
  description:
    "Pins (pin true, for 7 days, the network's default) or unpins the message in its chat on the network. When the network " +
    "echoes it, the chat's `pinned_messages` (GET /chats, GET /chats/{chat_id}) lists it ({message_id, pinned_at, expires_at}, " +
    'epoch ms) until it is unpinned or expires, and `message.updated` is emitted for the message (previous_attributes: ' +
    'updated_at; the message object has no pin field). Pins made on the phone or by other participants are recorded alike. ' +
    'A deleted message is 422 naming message_id.',
  rpc: PinMessageRpc,
  body: PinMessageBody,
});
