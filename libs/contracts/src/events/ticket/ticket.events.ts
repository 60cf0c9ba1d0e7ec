import { defineEvent } from '../define-event';
import { TicketSchema } from './ticket.schema';

export const TicketCreatedEvent = defineEvent({
  name: 'ticket.created',
  subject: 'events.v1.ticket.created',
  summary: 'A ticket was raised on a chat (POST /tickets/create).',
  data: TicketSchema,
});

export const TicketUpdatedEvent = defineEvent({
  name: 'ticket.updated',
  subject: 'events.v1.ticket.updated',
  summary: 'A ticket changed (status, assignee, priority, labels, …): PATCH /tickets/{ticket_id}.',
  data: TicketSchema,
});

export const TicketDeletedEvent = defineEvent({
  name: 'ticket.deleted',
  subject: 'events.v1.ticket.deleted',
  summary: 'A ticket was deleted (DELETE /tickets/{ticket_id}): the ticket as it was, with is_deleted true.',
  data: TicketSchema,
});
