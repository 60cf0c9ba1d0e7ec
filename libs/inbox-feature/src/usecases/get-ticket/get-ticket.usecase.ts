import type { GetTicketRequest, TicketInfo } from '@mapi/contracts';
import { phonesInReach, ticketNotFound, type ChatLookup } from '../../chat-lookup';
import type { TicketRepository } from '../../repositories/ticket-repository';
import { ticketInfo } from './ticket-view';

/** GET /tickets/{ticket_id}: the ticket with its chat and messages; 404 out of reach. */
export class GetTicket {
  constructor(
    private readonly tickets: TicketRepository,
    private readonly chats: ChatLookup,
  ) {}

  async execute({ ctx, params }: GetTicketRequest): Promise<TicketInfo> {
    const row = await this.tickets.find(ctx.org_id, params.ticket_id, phonesInReach(ctx));
    if (!row) throw ticketNotFound();
    return ticketInfo(this.chats, ctx, row);
  }
}
