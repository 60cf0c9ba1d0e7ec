import { ChatSchema, type Chat, type ChatView, type Message, type Ticket, type TicketInfo, type TicketMessage } from '@mapi/contracts';
import { ticketValues, type TicketRow } from './repositories/ticket-repository';

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

/** `label_ids` as `TicketType` gives it: label → true (labels have no ids of their own yet: the name is the id). */
const labelIds = (labels: string[]): Record<string, boolean> => Object.fromEntries(labels.map((l) => [l, true]));

/**
 * The chat object of the events (`tbl_chats` columns, ChatSchema) from the chat view: its columns, with
 * the view's unread count as the number and org_phone '' where ingestion saw none.
 */
export function eventChat(view: ChatView): Chat {
  const picked = Object.fromEntries(Object.keys(ChatSchema.shape).map((k) => [k, (view as Record<string, unknown>)[k] ?? null])) as Chat;
  return { ...picked, org_phone: view.org_phone ?? '', unread_count: view.message_unread_count, created_at: view.created_at, updated_at: view.updated_at };
}

/**
 * A ticket row as the `tbl_chat_tickets` row of @periskope/types (the ticket.* events' object and
 * GET /tickets' items): every column present, null where nothing is kept; with its chat and messages
 * when given (the events carry them).
 */
export function mapTicket(row: TicketRow, related: { chat?: ChatView; quoted_message?: Message | null; attached_messages?: Message[] } = {}): Ticket {
  const { chat, ...messages } = related;
  return {
    ticket_id: row.ticket_id,
    org_id: row.org_id,
    chat_id: row.chat_id,
    subject: row.subject,
    status: row.status as Ticket['status'],
    priority: row.priority,
    assignee: row.assignee,
    assigned_by: row.assigned_by,
    raised_by: row.raised_by,
    quoted_message_id: row.quoted_message_id,
    due_date: iso(row.due_date),
    first_assigned_at: iso(row.first_assigned_at),
    closed_at: iso(row.closed_at),
    close_ticket_metadata: row.closed_at ? { closed_by: row.closed_by, closed_at: iso(row.closed_at), closed_message: null, send_reply_message_id: null } : null,
    custom_properties: ticketValues(row),
    label_ids: labelIds(row.labels),
    response_time: null,
    is_deleted: row.is_deleted,
    created_at: row.created_at.toISOString(),
    last_updated_at: row.last_updated_at.toISOString(),
    last_updated_by: row.last_updated_by,
    hubspot_metadata: null,
    freshdesk_metadata: null,
    zohodesk_metadata: null,
    ...(chat ? { chat: eventChat(chat) } : {}),
    ...messages,
  };
}

/** A message as a ticket shows it (`TicketInfoType.message`). */
export function mapTicketMessage(m: Message): TicketMessage {
  return {
    body: m.body,
    chat_id: m.chat_id,
    org_phone: m.org_phone,
    timestamp: m.timestamp,
    media_path: m.media?.path ?? null,
    message_id: m.message_id,
    sender_name: null,
    performed_by: m.performed_by,
    sender_phone: m.sender_phone,
  };
}

/** The answer of the ticket routes: `TicketInfoType` — chat, quoted message, ticket, attached messages. */
export function mapTicketInfo(row: TicketRow, chat: ChatView, quoted: Message | null, attached: Message[]): TicketInfo {
  const labels = Object.keys(chat.label_ids ?? {});
  return {
    chat: { ...chat, chat_labels: labels.length ? labels.join(',') : null },
    message: quoted ? mapTicketMessage(quoted) : null,
    ticket: {
      ticket_id: row.ticket_id,
      org_id: row.org_id,
      chat_id: row.chat_id,
      status: row.status as TicketInfo['ticket']['status'],
      subject: row.subject,
      assignee: row.assignee,
      due_date: iso(row.due_date),
      priority: row.priority,
      raised_by: row.raised_by,
      created_at: row.created_at.toISOString(),
      assigned_by: row.assigned_by,
      ticket_labels: row.labels.join(','),
      quoted_message_id: row.quoted_message_id,
      ticket_custom_properties: ticketValues(row),
      closed_at: iso(row.closed_at),
      closed_by: row.closed_by,
      closed_message: null,
      first_assigned_at: iso(row.first_assigned_at),
      is_deleted: row.is_deleted,
    },
    attached_messages: attached.map(mapTicketMessage),
  };
}
