import type { AttachTicketRequest, Message } from '@mapi/contracts';
import type { PrismaClient } from '@mapi/db';
import { writeEvents } from '@mapi/events';
import { messageInReach } from '../../messages/acting-message';
import { mapMessage } from '../../messages/map-message';
import type { MessageRefRepository } from '../../repositories/message-ref-repository';

/**
 * chats.v1.message.attach-ticket (internal, called by the inbox service): sets the message's
 * message_ticket_id on the copy within reach and emits message.ticket.attached with it, in one
 * transaction. Already attached to that ticket: answered as it is, no second event.
 */
export class AttachTicket {
  constructor(
    private readonly messages: MessageRefRepository,
    private readonly prisma: PrismaClient,
  ) {}

  async execute({ ctx, params, body }: AttachTicketRequest): Promise<Message> {
    const row = await messageInReach(this.messages, ctx, params.message_id);
    if (row.message_ticket_id === body.ticket_id) return mapMessage(row);
    return this.prisma.$transaction(async (tx) => {
      const updated = await tx.message.update({
        where: { phone_id_message_id: { phone_id: row.phone_id, message_id: row.message_id }, org_id: ctx.org_id },
        data: { message_ticket_id: body.ticket_id },
      });
      const message = mapMessage(updated);
      await writeEvents(tx, [
        {
          type: 'message.ticket.attached',
          org_id: ctx.org_id,
          phone_id: row.phone_id,
          data: message,
          previous: { message_ticket_id: row.message_ticket_id },
        },
      ]);
      return message;
    });
  }
}
