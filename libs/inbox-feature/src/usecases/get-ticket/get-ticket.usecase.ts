import type { GetTicketRequest, TicketInfo } from '@mapi/contracts';
import { ticketNotFound, type ChatLookup } from '../../chat-lookup';
import { rowPhones, visibleRow, type ChatReachCheck } from '../../member-reach';
import type { TicketRepository } from '../../repositories/ticket-repository';
import { ticketInfo } from './ticket-view';

/** GET /tickets/{ticket_id}: the ticket with its chat and messages; 404 out of reach. */
export class GetTicket {
  constructor(
    private readonly tickets: TicketRepository,
    private readonly chats: ChatLookup,
    private readonly reach: ChatReachCheck,
  ) {}

  async execute({ ctx, params }: GetTicketRequest): Promise<TicketInfo> {
    const row = await visibleRow(this.reach, ctx, await this.tickets.find(ctx.org_id, params.ticket_id, rowPhones(ctx)));
    if (!row) throw ticketNotFound();
    return ticketInfo(this.chats, ctx, row);
  }
}
