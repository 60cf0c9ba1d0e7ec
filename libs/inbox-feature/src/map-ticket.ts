import { ChatSchema, type Chat, type ChatView, type Message, type Ticket, type TicketInfo, type TicketMessage } from '@mapi/contracts';
import { ticketValues, type TicketJson, type TicketRow } from './repositories/ticket-repository';

/** `2026-11-26T18:58:55.006123+00:00` as Postgres writes a timestamptz in JSON (session time zone UTC). */
const PG_UTC = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?\+00:00$/;

/**
 * A timestamp of `row_to_json` as `Date.prototype.toISOString` writes it (milliseconds, truncated as
 * Date reads them; `Z`), by string: no Date per value. Any other form goes through Date.
 */
export function isoFromPg(text: string): string {
  const m = PG_UTC.exec(text);
  if (!m) return new Date(text).toISOString();
  const f = m[2];
  return `${m[1]}.${f === undefined ? '000' : f.length >= 3 ? f.slice(0, 3) : f.padEnd(3, '0')}Z`;
}

/** `label_ids` as `TicketType` gives it: label → true (labels have no ids of their own yet: the name is the id). */
const labelIds = (labels: string[]): Record<string, boolean> => Object.fromEntries(labels.map((l) => [l, true]));

/**
 * The chat object of the events (`tbl_chats` columns, ChatSchema) from the chat view: its columns, with
 * the view's unread count as the number and org_phone '' where ingestion saw none.
 */
export function eventChat(view: ChatView): Chat {
  const picked = Object.fromEntries(Object.keys(ChatSchema.shape).map((k) => [k, (view as Record<string, unknown>)[k] ?? null])) as Chat;
  return {
    ...picked,
    org_phone: view.org_phone ?? '',
    unread_count: view.message_unread_count,
    created_at: view.created_at,
    updated_at: view.updated_at,
  };
}

type StampKey = 'first_assigned_at' | 'due_date' | 'closed_at' | 'created_at' | 'last_updated_at';
/** A ticket row whose timestamps are of type S: Dates (TicketRow, Prisma) or Postgres' JSON text (TicketJson). */
type TicketOf<S> = Omit<TicketRow, StampKey> &
  Record<'first_assigned_at' | 'due_date' | 'closed_at', S | null> &
  Record<'created_at' | 'last_updated_at', S>;

/**
 * The one definition of the `tbl_chat_tickets` row of @periskope/types (the ticket.* events' object
 * and GET /tickets' items): every column present, null where nothing is kept, key for key in the
 * order clients see; `at` writes a timestamp of the row as `toISOString` would.
 */
function ticketObject<S>(r: TicketOf<S>, at: (stamp: S) => string): Ticket {
  const orNull = (stamp: S | null) => (stamp === null ? null : at(stamp));
  const closedAt = orNull(r.closed_at);
  return {
    ticket_id: r.ticket_id,
    org_id: r.org_id,
    chat_id: r.chat_id,
    subject: r.subject,
    status: r.status as Ticket['status'],
    priority: r.priority,
    assignee: r.assignee,
    assigned_by: r.assigned_by,
    raised_by: r.raised_by,
    quoted_message_id: r.quoted_message_id,
    due_date: orNull(r.due_date),
    first_assigned_at: orNull(r.first_assigned_at),
    closed_at: closedAt,
    close_ticket_metadata: closedAt
      ? { closed_by: r.closed_by, closed_at: closedAt, closed_message: null, send_reply_message_id: null }
      : null,
    custom_properties: ticketValues(r),
    label_ids: labelIds(r.labels),
    response_time: null,
    is_deleted: r.is_deleted,
    created_at: at(r.created_at),
    last_updated_at: at(r.last_updated_at),
    last_updated_by: r.last_updated_by,
    hubspot_metadata: null,
    freshdesk_metadata: null,
    zohodesk_metadata: null,
  };
}

const isoOfDate = (d: Date): string => d.toISOString();
const iso = (d: Date | null): string | null => (d ? isoOfDate(d) : null);

/** A ticket row as the API's ticket, with its chat and messages when given (the events carry them). */
export function mapTicket(
  row: TicketRow,
  related: { chat?: ChatView; quoted_message?: Message | null; attached_messages?: Message[] } = {},
): Ticket {
  const { chat, ...messages } = related;
  return { ...ticketObject(row, isoOfDate), ...(chat ? { chat: eventChat(chat) } : {}), ...messages };
}

/**
 * A listing's row (`row_to_json`, parsed) as the API's ticket: the same definition as mapTicket, its
 * timestamps written from Postgres' text (isoFromPg) with no Date objects (map-ticket.spec.ts holds
 * the two equal).
 */
export function mapTicketJson(j: TicketJson): Ticket {
  return ticketObject(j, isoFromPg);
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
