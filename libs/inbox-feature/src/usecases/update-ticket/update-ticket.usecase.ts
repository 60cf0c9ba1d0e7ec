import { previousAttributes, type TicketInfo, type UpdateTicketRequest } from '@mapi/contracts';
import { writeEvents } from '@mapi/events';
import { ticketNotFound, type ChatLookup } from '../../chat-lookup';
import { checkPropertyValues } from '../../custom-property-values';
import type { CustomPropertyRepository } from '../../repositories/custom-property-repository';
import { rowPhones, visibleRow, type ChatReachCheck } from '../../member-reach';
import { mapTicket, mapTicketInfo } from '../../map-ticket';
import type { TicketRepository } from '../../repositories/ticket-repository';
import { ticketRelations } from '../get-ticket/ticket-view';
import { ticketChanges } from './ticket-changes';

/**
 * PATCH /tickets/{ticket_id}: changes the given fields of a ticket in reach (custom_properties merged,
 * checked against the organization's ticket custom properties as a chat's are against chat ones). The row is locked while
 * the change is computed and written with ticket.updated (previous_attributes: the fields it
 * replaced) in one transaction; a change of nothing writes nothing.
 */
export class UpdateTicket {
  constructor(
    private readonly tickets: TicketRepository,
    private readonly chats: ChatLookup,
    private readonly reach: ChatReachCheck,
    private readonly properties: CustomPropertyRepository,
  ) {}

  async execute({ ctx, params, body }: UpdateTicketRequest): Promise<TicketInfo> {
    // custom property values are checked against the ticket definitions first: 422 before anything is read or written
    const values =
      body.custom_properties === undefined
        ? undefined
        : checkPropertyValues(await this.properties.list(ctx.org_id, 'ticket'), body.custom_properties);
    const reach = rowPhones(ctx);
    const seen = await visibleRow(this.reach, ctx, await this.tickets.find(ctx.org_id, params.ticket_id, reach));
    if (!seen) throw ticketNotFound();
    // Read from the chats service before the row is locked: no lock is held across an RPC.
    const { chat, quoted, attached } = await ticketRelations(this.chats, ctx, seen);
    const row = await this.tickets.transaction(async (tx) => {
      const before = await this.tickets.findForUpdate(tx, ctx.org_id, params.ticket_id, reach);
      if (!before) throw ticketNotFound();
      const now = new Date();
      const changes = ticketChanges(before, body, ctx, now, values);
      if (!Object.keys(changes).length) return before;
      const after = await this.tickets.update(tx, ctx.org_id, before.ticket_id, changes, now);
      const related = { chat, quoted_message: quoted, attached_messages: attached };
      const data = mapTicket(after, related);
      const previous = previousAttributes(mapTicket(before, related), data);
      await writeEvents(tx, [{ type: 'ticket.updated', org_id: ctx.org_id, phone_id: after.phone_id, data, previous }]);
      return after;
    });
    return mapTicketInfo(row, chat, quoted, attached);
  }
}
