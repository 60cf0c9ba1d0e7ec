import type { DeleteTicketRequest } from '@mapi/contracts';
import { writeEvents } from '@mapi/events';
import { ticketNotFound, type ChatLookup } from '../../chat-lookup';
import { rowPhones, visibleRow, type ChatReachCheck } from '../../member-reach';
import { mapTicket } from '../../map-ticket';
import type { TicketRepository } from '../../repositories/ticket-repository';
import { ticketRelations } from '../get-ticket/ticket-view';

/**
 * DELETE /tickets/{ticket_id}: marks a ticket in reach deleted and writes ticket.deleted (the ticket as
 * it was, is_deleted true) in the same transaction. A deleted ticket is gone from every read, so a second
 * delete is 404 and emits nothing. Messages attached to it keep their message_ticket_id.
 */
export class DeleteTicket {
  constructor(
    private readonly tickets: TicketRepository,
    private readonly chats: ChatLookup,
    private readonly reach: ChatReachCheck,
  ) {}

  async execute({ ctx, params }: DeleteTicketRequest): Promise<null> {
    const reach = rowPhones(ctx);
    const seen = await visibleRow(this.reach, ctx, await this.tickets.find(ctx.org_id, params.ticket_id, reach));
    if (!seen) throw ticketNotFound();
    // Read from the chats service before the row is locked: no lock is held across an RPC.
    const { chat, quoted, attached } = await ticketRelations(this.chats, ctx, seen);
    await this.tickets.transaction(async (tx) => {
      const before = await this.tickets.findForUpdate(tx, ctx.org_id, params.ticket_id, reach);
      if (!before) throw ticketNotFound();
      const after = await this.tickets.markDeleted(tx, ctx.org_id, before.ticket_id, ctx.token_id, new Date());
      const data = mapTicket(after, { chat, quoted_message: quoted, attached_messages: attached });
      await writeEvents(tx, [{ type: 'ticket.deleted', org_id: ctx.org_id, phone_id: after.phone_id, data }]);
    });
    return null;
  }
}
