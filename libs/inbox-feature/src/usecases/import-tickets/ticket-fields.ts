import type { z } from 'zod';
import type { ImportTicketFields } from '@mapi/contracts';
import { ItemRefused, date, record, str } from '../../imports/import-items';
import { uuidId } from '../../imports/kept-id';

/** The organization's labels (id → name) and ticket properties, to read a ticket's labels and values. */
export interface TicketCatalogue {
  labels: Map<string, string>;
  properties: Set<string>;
}

const lower = (v: string | null) => (v ? v.trim().toLowerCase() : null);

/**
 * A ticket's labels as names (tickets keep names, docs/services/inbox.md): `label_ids` keys (a label
 * id of this organization is read as its name; else the key is the name, as our own rows give it) or
 * `ticket_labels`, comma-separated (TicketInfoType's form).
 */
function labelNames(t: Record<string, unknown>, labels: Map<string, string>): string[] {
  const ids = record(t.label_ids);
  const keys = ids ? Object.keys(ids) : (str(t.ticket_labels) ?? '').split(',');
  const names = keys.map((k) => (uuidId(k) ? labels.get(k) : undefined) ?? k.trim().toLowerCase()).filter(Boolean);
  return [...new Set(names)];
}

/** Property id → text, every key a ticket property of this organization (else the item fails: its value would be lost). */
function propertyValues(t: Record<string, unknown>, properties: Set<string>): Record<string, string> {
  const values = record(t.custom_properties) ?? record(t.ticket_custom_properties) ?? {};
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(values)) {
    if (value === null || value === undefined || value === '') continue;
    if (!properties.has(key)) throw new ItemRefused(`ticket.custom_properties.${key}: not a ticket custom property of this organization`);
    out[key] = typeof value === 'string' ? value : JSON.stringify(value);
  }
  return out;
}

/** Message ids: `attached_message_ids`, else TicketInfoType's `attached_messages`. */
function attachedIds(t: Record<string, unknown>, info: Record<string, unknown> | null): string[] {
  if (Array.isArray(t.attached_message_ids)) return t.attached_message_ids.filter((m): m is string => typeof m === 'string');
  const list = info?.attached_messages ?? t.attached_messages;
  return Array.isArray(list) ? list.flatMap((m) => str(record(m)?.message_id) ?? []) : [];
}

/**
 * The inbox_tickets columns of a source ticket (a GET /tickets row, or TicketInfoType's `ticket` with
 * the info around it), dates and actors as the source has them.
 */
export function ticketFields(
  t: Record<string, unknown>,
  head: z.infer<typeof ImportTicketFields>,
  info: Record<string, unknown> | null,
  catalogue: TicketCatalogue,
): Record<string, unknown> {
  const closed = record(t.close_ticket_metadata) ?? {};
  const created = date(t.created_at);
  if (t.created_at !== undefined && t.created_at !== null && !created) throw new ItemRefused('ticket.created_at is not a date');
  const status = head.status ?? 'open';
  const closedAt = date(t.closed_at) ?? date(closed.closed_at);
  return {
    chat_id: head.chat_id,
    subject: head.subject,
    status,
    priority: head.priority ?? 1,
    assignee: lower(str(t.assignee)),
    assigned_by: str(t.assigned_by),
    first_assigned_at: date(t.first_assigned_at),
    raised_by: str(t.raised_by),
    quoted_message_id: str(t.quoted_message_id) ?? str(record(info?.message)?.message_id),
    attached_message_ids: attachedIds(t, info),
    due_date: date(t.due_date),
    labels: labelNames(t, catalogue.labels),
    custom_properties: propertyValues(t, catalogue.properties),
    closed_at: status === 'closed' || status === 'archived' ? (closedAt ?? created) : null,
    closed_by: status === 'closed' || status === 'archived' ? (str(t.closed_by) ?? str(closed.closed_by)) : null,
    is_deleted: t.is_deleted === true,
    // without its dates the row takes now() when made, and a rerun leaves them
    ...(created ? { created_at: created } : {}),
    ...((date(t.last_updated_at) ?? created) ? { last_updated_at: date(t.last_updated_at) ?? created } : {}),
    last_updated_by: str(t.last_updated_by),
  };
}
