import { Errors, ServiceError, type CreateTaskBody, type RequestContext } from '@mapi/contracts';
import type { Prisma } from '@mapi/db';
import { onPhone, phonesInReach, ticketNotFound, type ChatLookup } from '../../chat-lookup';
import { isMember } from '../../member-reach';
import type { TicketRepository } from '../../repositories/ticket-repository';

/** The associated object of a new task, resolved within the caller's reach. */
export interface ResolvedAssociation {
  type: 'todo' | 'chat' | 'message' | 'ticket';
  /** The phone that holds the object for the caller; null for a todo. */
  phone_id: string | null;
  chat_id: string | null;
  message_id: string | null;
  ticket_id: string | null;
  /** `AssociatedObjectMetadataType` of @periskope/types; null for a todo. */
  metadata: Prisma.InputJsonValue | null;
}

const TODO: ResolvedAssociation = { type: 'todo', phone_id: null, chat_id: null, message_id: null, ticket_id: null, metadata: null };

/**
 * Finds the object a task is about, as the caller may see it: a ticket of a phone in reach (404
 * otherwise, as GET /tickets/{ticket_id}), a chat a phone in reach has (404 otherwise, the chats
 * service's answer), a message of that chat on that phone (422 on association.message_id otherwise).
 */
export async function resolveAssociation(
  ctx: RequestContext,
  association: CreateTaskBody['association'],
  chats: ChatLookup,
  tickets: TicketRepository,
): Promise<ResolvedAssociation> {
  if (!association) return TODO;
  if (association.ticket_id) {
    const ticket = await tickets.find(ctx.org_id, association.ticket_id, phonesInReach(ctx));
    if (!ticket) throw ticketNotFound();
    // a member: the ticket's chat must be within their labels and overrides too (the chats service's answer)
    if (isMember(ctx))
      await chats.chat(onPhone(ctx, ticket.phone_id), ticket.chat_id).catch((e: unknown) => {
        throw e instanceof ServiceError && e.status === 404 ? ticketNotFound() : e;
      });
    const object = {
      ticket_id: ticket.ticket_id,
      quoted_message_id: ticket.quoted_message_id,
      chat_id: ticket.chat_id,
      org_id: ticket.org_id,
    };
    return {
      type: 'ticket',
      phone_id: ticket.phone_id,
      chat_id: ticket.chat_id,
      message_id: null,
      ticket_id: ticket.ticket_id,
      metadata: { type: 'ticket', index: 'ticket_id', id: ticket.ticket_id, object },
    };
  }
  const chat = await chats.chat(ctx, association.chat_id as string);
  const orgPhone = chat.org_phone ?? (ctx.phone?.phone_id === chat.phone_id ? ctx.phone.org_phone : null) ?? '';
  if (!association.message_id) {
    const object = { chat_id: chat.chat_id, org_phone: orgPhone, org_id: ctx.org_id };
    return {
      type: 'chat',
      phone_id: chat.phone_id,
      chat_id: chat.chat_id,
      message_id: null,
      ticket_id: null,
      metadata: { type: 'chat', index: 'chat_id', id: chat.chat_id, object },
    };
  }
  const message = await chats.message(ctx, chat.phone_id, association.message_id);
  if (!message || message.chat_id !== chat.chat_id) {
    throw Errors.validation({ 'body.association.message_id': { message: 'message_id must name a message of the chat' } });
  }
  const object = {
    message_id: message.message_id,
    org_phone: message.org_phone,
    chat_id: message.chat_id,
    sender_phone: message.sender_phone,
    org_id: ctx.org_id,
    is_private_note: false,
  };
  return {
    type: 'message',
    phone_id: chat.phone_id,
    chat_id: chat.chat_id,
    message_id: message.message_id,
    ticket_id: null,
    metadata: { type: 'message', index: 'message_id', id: message.message_id, object },
  };
}
