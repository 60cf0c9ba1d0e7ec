import { pagePositions, type ListTicketsRequest, type ListTicketsResponse } from '@mapi/contracts';
import { phonesInReach } from '../../chat-lookup';
import { mapTicket } from '../../map-ticket';
import type { TicketRepository } from '../../repositories/ticket-repository';

/** GET /tickets: a page of the organization's tickets of the phones in reach, newest first, filtered. */
export class ListTickets {
  constructor(private readonly tickets: TicketRepository) {}

  async execute({ ctx, query }: ListTicketsRequest): Promise<ListTicketsResponse> {
    const { offset, limit, ...filter } = query;
    const rows = await this.tickets.list(ctx.org_id, phonesInReach(ctx), filter, offset, limit);
    return { ...pagePositions(offset, rows.length), tickets: rows.map((r) => mapTicket(r)) };
  }
}
