import type { Ticket } from '@mapi/contracts';
import { Prisma } from '@mapi/db';

/** A timestamptz of `inbox_tickets` (alias t) as Date.prototype.toISOString writes it (the columns keep milliseconds). */
const iso = (column: string) => `to_char(t.${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** Every key of GET /tickets' item (mapTicketJson's: a listing carries no chat or messages), in its order, and how Postgres writes it. */
const TICKET_API: Record<Exclude<keyof Ticket, 'chat' | 'quoted_message' | 'attached_messages'>, string> = {
  ticket_id: 't.ticket_id',
  org_id: 't.org_id',
  chat_id: 't.chat_id',
  subject: 't.subject',
  status: 't.status',
  priority: 't.priority',
  assignee: 't.assignee',
  assigned_by: 't.assigned_by',
  raised_by: 't.raised_by',
  quoted_message_id: 't.quoted_message_id',
  due_date: iso('due_date'),
  first_assigned_at: iso('first_assigned_at'),
  closed_at: iso('closed_at'),
  close_ticket_metadata: 'CASE WHEN t.closed_at IS NOT NULL THEN row_to_json(ctm) END',
  custom_properties: `coalesce('{' || cp.text || '}', '{}')::json`,
  label_ids: `coalesce('{' || lb.text || '}', '{}')::json`,
  response_time: 'NULL',
  is_deleted: 't.is_deleted',
  created_at: iso('created_at'),
  last_updated_at: iso('last_updated_at'),
  last_updated_by: 't.last_updated_by',
  hubspot_metadata: 'NULL',
  freshdesk_metadata: 'NULL',
  zohodesk_metadata: 'NULL',
};

/** An object key JavaScript orders before the others (an array index), which Object.fromEntries would move first. */
const INTEGER_KEY = `'^(0|[1-9][0-9]*)$'`;

/**
 * GET /tickets' item (mapTicketJson's object) written by Postgres as JSON.stringify writes it, for
 * the listing's rows aliased `t`: `j` is that text when `ok`, else the row as `row_to_json(t)` (what
 * listJson reads) for the caller to map. Not ok: a custom property or label key JavaScript would
 * order otherwise (an integer-like key; a key outside printable ASCII, whose order by bytes may
 * differ from JavaScript's by UTF-16 units), a repeated or null label, a year outside 1000–9999.
 * `custom_properties` keeps string values only, keys sorted, as ticketValues; `label_ids` is each
 * label → true, as labelIds — both written compactly (string_agg, not json_object_agg's spaces).
 * Held to mapTicketJson byte for byte by ticket-json-sql.int-spec.ts.
 */
export const ticketReadyJoins = Prisma.raw(`
  CROSS JOIN LATERAL (SELECT t.closed_by, ${iso('closed_at')} AS closed_at, NULL AS closed_message, NULL AS send_reply_message_id) ctm
  CROSS JOIN LATERAL (
    SELECT string_agg(to_json(e.key)::text || ':' || e.value::text, ',' ORDER BY e.key COLLATE "C") AS text,
           coalesce(bool_and(e.key !~ ${INTEGER_KEY} AND e.key ~ '^[ -~]*$'), true) AS ok
    FROM jsonb_each(CASE WHEN jsonb_typeof(t.custom_properties) = 'object' THEN t.custom_properties END) e
    WHERE jsonb_typeof(e.value) = 'string') cp
  CROSS JOIN LATERAL (
    SELECT string_agg(to_json(u.l)::text || ':true', ',' ORDER BY u.i) AS text,
           coalesce(bool_and(u.l IS NOT NULL AND u.l !~ ${INTEGER_KEY} AND u.l ~ '^[ -~]*$'), true) AND count(DISTINCT u.l) = count(*) AS ok
    FROM unnest(t.labels) WITH ORDINALITY u(l, i)) lb
  CROSS JOIN LATERAL (
    SELECT cp.ok AND lb.ok
       AND least(t.created_at, t.last_updated_at, t.due_date, t.first_assigned_at, t.closed_at) >= '1000-01-01T00:00:00Z'
       AND greatest(t.created_at, t.last_updated_at, t.due_date, t.first_assigned_at, t.closed_at) < '10000-01-01T00:00:00Z' AS ok) chk
  CROSS JOIN LATERAL (SELECT ${Object.entries(TICKET_API).map(([key, sql]) => `${sql} AS "${key}"`).join(', ')}) api`);

export const ticketReadySelect = Prisma.raw(`CASE WHEN chk.ok THEN row_to_json(api)::text ELSE row_to_json(t)::text END AS j, chk.ok AS ok`);

/** The item's keys in the order Postgres writes them (ticket-json-sql.spec holds them to mapTicketJson's). */
export const TICKET_API_KEYS = Object.keys(TICKET_API);
