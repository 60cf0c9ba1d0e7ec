import { randomUUID } from 'node:crypto';
import { Errors, type CreateTicketRequest, type Message, type TicketInfo } from '@mapi/contracts';
import { writeEvents } from '@mapi/events';
import { ticketNotFound, type ChatLookup } from '../../chat-lookup';
import { createOnce, sameRequest, type CreateOnce } from '../../create-once';
import { isDuplicateKey } from '../../rows/pg-errors';
import { checkPropertyValues } from '../../custom-property-values';
import type { CustomPropertyRepository } from '../../repositories/custom-property-repository';
import type { MessageAttacher } from '../../message-attacher';
import { mapTicket, mapTicketInfo } from '../../map-ticket';
import type { TicketRepository, TicketRow } from '../../repositories/ticket-repository';
import { ticketInfo } from '../get-ticket/ticket-view';

/** The 422 of a quoted message (or reply) that is not a message of the chat on the ticket's phone. */
export const notAMessageOfTheChat = (field: string) =>
  Errors.validation({ [`body.${field}`]: { message: `${field} must name a message of the chat` } });

/**
 * POST /tickets/create: a ticket on a chat within reach, belonging to the phone that holds the chat
 * for this caller; the quoted message (if any) is checked, kept and attached. Row and ticket.created
 * are written in one transaction. Under an Idempotency-Key the ticket's id derives from the key: a repeat
 * of the request answers the ticket it made (as it is now), another request under the key is 422.
 */
export class CreateTicket {
  constructor(
    private readonly tickets: TicketRepository,
    private readonly chats: ChatLookup,
    private readonly attacher: MessageAttacher,
    private readonly properties: CustomPropertyRepository,
  ) {}

  async execute({ ctx, body, headers }: CreateTicketRequest): Promise<TicketInfo> {
    const once = createOnce(ctx, 'tickets.create', headers, body);
    const made = once && (await this.tickets.findMade(ctx.org_id, once.id));
    if (made) return this.replay(ctx, made, once);
    try {
      return await this.create(ctx, body, once);
    } catch (error) {
      const raced = once && isDuplicateKey(error) ? await this.tickets.findMade(ctx.org_id, once.id) : null;
      if (once && raced) return this.replay(ctx, raced, once);
      throw error;
    }
  }

  private replay(ctx: CreateTicketRequest['ctx'], made: TicketRow, once: CreateOnce): Promise<TicketInfo> {
    if (sameRequest(made, once).is_deleted) throw ticketNotFound();
    return ticketInfo(this.chats, ctx, made);
  }

  private async create(ctx: CreateTicketRequest['ctx'], body: CreateTicketRequest['body'], once: CreateOnce | null): Promise<TicketInfo> {
    // custom property values are checked against the ticket definitions first (422 before anything is read or written)
    const values =
      body.custom_properties === undefined
        ? {}
        : checkPropertyValues(await this.properties.list(ctx.org_id, 'ticket'), body.custom_properties);
    const chat = await this.chats.chat(ctx, body.chat_id);
    let quoted: Message | null = null;
    if (body.quoted_message_id) {
      quoted = await this.chats.message(ctx, chat.phone_id, body.quoted_message_id);
      if (!quoted || quoted.chat_id !== chat.chat_id) throw notAMessageOfTheChat('quoted_message_id');
    }
    // The chats service marks the message first (idempotent: attaching it again to the same ticket changes
    // nothing); the ticket then commits with ticket.created. A ticket is never left without its attachment.
    const ticketId = once?.id ?? randomUUID();
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
        // a null (clear) on a new ticket sets nothing
        custom_properties: Object.fromEntries(
          Object.entries(values)
            .filter((e): e is [string, string] => e[1] !== null)
            .sort(([a], [b]) => (a < b ? -1 : 1)),
        ),
        closed_at: closed ? now : null,
        closed_by: closed ? ctx.token_id : null,
        last_updated_by: ctx.token_id,
        request_hash: once?.hash ?? null,
      });
      const data = mapTicket(created, { chat, quoted_message: attached, attached_messages: attached ? [attached] : [] });
      await writeEvents(tx, [{ type: 'ticket.created', org_id: ctx.org_id, phone_id: chat.phone_id, data }]);
      return created;
    });
    return mapTicketInfo(row, chat, attached, attached ? [attached] : []);
  }
}
