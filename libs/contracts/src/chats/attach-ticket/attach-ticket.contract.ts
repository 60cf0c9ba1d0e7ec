import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRpc } from '../../rpc/define-rpc';
import { MessageSchema } from '../message/message.schema';
import { MessageRefParams } from '../message-ref/message-ref';

/**
 * Internal (no public route): the inbox service attaches a message to a ticket. The chats service
 * owns the messages table, so it sets the message's `message_ticket_id` and emits
 * message.ticket.attached. Attaching a message to the ticket it is already attached to changes
 * nothing and emits nothing (a retry is harmless).
 */
export const AttachTicketRpc = defineRpc({
  subject: 'chats.v1.message.attach-ticket',
  service: 'chats',
  request: z.object({ ctx: RequestContextSchema, params: MessageRefParams, body: z.object({ ticket_id: z.uuid() }) }),
  response: MessageSchema,
});
export type AttachTicketRequest = z.infer<typeof AttachTicketRpc.request>;
