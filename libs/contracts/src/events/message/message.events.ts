import { MessageSchema } from '../../chats/message/message.schema';
import { defineEvent } from '../define-event';

// Every message event carries the whole message object (spec 2.1) as it is after the change.

export const MessageCreatedEvent = defineEvent({
  name: 'message.created',
  subject: 'events.v1.message.created',
  summary: 'A new message arrived on a phone or was sent from it (history synced later emits none).',
  data: MessageSchema,
});

export const MessageUpdatedEvent = defineEvent({
  name: 'message.updated',
  subject: 'events.v1.message.updated',
  summary: 'A message changed: its body was edited (prev_body holds the old text) or its poll tally moved.',
  data: MessageSchema,
});

export const MessageDeletedEvent = defineEvent({
  name: 'message.deleted',
  subject: 'events.v1.message.deleted',
  summary: 'A message was deleted for everyone (is_deleted is true).',
  data: MessageSchema,
});

export const MessageAckUpdatedEvent = defineEvent({
  name: 'message.ack.updated',
  subject: 'events.v1.message.ack.updated',
  summary: "A message's ack moved up (or a group member's receipt was added to delivery_info).",
  data: MessageSchema,
});

export const MessageTicketAttachedEvent = defineEvent({
  name: 'message.ticket.attached',
  subject: 'events.v1.message.ticket.attached',
  summary: 'A message was attached to a ticket (message_ticket_id): the message a new ticket quotes.',
  data: MessageSchema,
});

export const MessageFlaggedEvent = defineEvent({
  name: 'message.flagged',
  subject: 'events.v1.message.flagged',
  summary:
    "A message was flagged for a response (flag_status, flag_metadata): by a member (PUT /message/{message_id}/flag), a workflow's flag_message, or a flag rule or the model (flag_metadata.reason, rule_id); previous_attributes flag_status.",
  data: MessageSchema,
});

export const MessageUnflaggedEvent = defineEvent({
  name: 'message.unflagged',
  subject: 'events.v1.message.unflagged',
  summary:
    "A message's flag was cleared: by a member or a workflow (response_type manual), or by a reply (response_type message, response_id); previous_attributes flag_status.",
  data: MessageSchema,
});
