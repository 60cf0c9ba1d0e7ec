import { randomUUID } from 'node:crypto';
import { Errors, type CreateTicketRequest, type Message, type TicketInfo } from '@mapi/contracts';
import { writeEvents } from '@mapi/events';
import type { ChatLookup } from '../../chat-lookup';
import type { MessageAttacher } from '../../message-attacher';
import { mapTicket, mapTicketInfo } from '../../map-ticket';
import type { TicketRepository } from '../../repositories/ticket-repository';

/** The 422 of a quoted message (or reply) that is not a message of the chat on the ticket's phone. */
export const notAMessageOfTheChat = (field: string) =>
  Errors.validation({ [`body.${field}`]: { message: `${field} must name a message of the chat` } });

/**
 * POST /tickets/create: a ticket on a chat within reach, belonging to the phone that holds the chat
 * for this caller; the quoted message (if any) is checked, kept and attached. Row and ticket.created
 * are written in one transaction.
 */
export class CreateTicket {
  constructor(
    private readonly tickets: TicketRepository,
    private readonly chats: ChatLookup,
    private readonly attacher: MessageAttacher,
  ) {}

  async execute({ ctx, body }: CreateTicketRequest): Promise<TicketInfo> {
    const chat = await this.chats.chat(ctx, body.chat_id);
    let quoted: Message | null = null;
    if (body.quoted_message_id) {
      quoted = await this.chats.message(ctx, chat.phone_id, body.quoted_message_id);
      if (!quoted || quoted.chat_id !== chat.chat_id) throw notAMessageOfTheChat('quoted_message_id');
    }
    // The chats service marks the message first (idempotent: attaching it again to the same ticket changes
    // nothing); the ticket then commits with ticket.created. A ticket is never left without its attachment.
    const ticketId = randomUUID();
    const attached = quoted ? await this.attacher.attach(ctx, chat.phone_id, quoted.message_id, ticketId) : null;
    const now = new Date();
    const status = body.status ?? 'open';
    const closed = status === 'closed';
    const row = await this.tickets.transaction(async (tx) => {
      const created = await this.tickets.insert(tx, ctx.org_id, {
        ticket_id: ticketId,
        phone_id: chat.phone_id,
        chat_id: chat.chat_id,
        subject: body.subject,
        status,
        priority: body.priority ?? 1,
        assignee: body.assignee ?? null,
        assigned_by: body.assignee ? ctx.token_id : null,
        first_assigned_at: body.assignee ? now : null,
        raised_by: ctx.token_id,
        quoted_message_id: attached?.message_id ?? null,
        attached_message_ids: attached ? [attached.message_id] : [],
        due_date: body.due_date ? new Date(body.due_date) : null,
        labels: body.labels ?? [],
        closed_at: closed ? now : null,
        closed_by: closed ? ctx.token_id : null,
        last_updated_by: ctx.token_id,
      });
      const data = mapTicket(created, { chat, quoted_message: attached, attached_messages: attached ? [attached] : [] });
      await writeEvents(tx, [{ type: 'ticket.created', org_id: ctx.org_id, phone_id: chat.phone_id, data }]);
      return created;
    });
    return mapTicketInfo(row, chat, attached, attached ? [attached] : []);
  }
}
