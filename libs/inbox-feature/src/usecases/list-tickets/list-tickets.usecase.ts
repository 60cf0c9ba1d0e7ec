import { pagePositions, type ListTicketsRequest, type ListTicketsResponse } from '@mapi/contracts';
import { rowPhones, visiblePage, type ChatReachCheck } from '../../member-reach';
import { mapTicket } from '../../map-ticket';
import type { TicketRepository } from '../../repositories/ticket-repository';

/** GET /tickets: a page of the organization's tickets of the phones in reach, newest first, filtered. */
export class ListTickets {
  constructor(
    private readonly tickets: TicketRepository,
    private readonly reach: ChatReachCheck,
  ) {}

  async execute({ ctx, query }: ListTicketsRequest): Promise<ListTicketsResponse> {
    const { offset, limit, ...filter } = query;
    const rows = await visiblePage(this.reach, ctx, (o, l) => this.tickets.list(ctx.org_id, rowPhones(ctx), filter, o, l), offset, limit);
    return { ...pagePositions(offset, rows.length), tickets: rows.map((r) => mapTicket(r)) };
  }
}
