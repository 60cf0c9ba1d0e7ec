import type { RequestContext, UpdateTicketBody } from '@mapi/contracts';
import { ticketValues, type TicketChanges, type TicketRow } from '../../repositories/ticket-repository';

const sameDate = (a: Date | null, b: Date | null) => (a?.getTime() ?? null) === (b?.getTime() ?? null);
const sameList = (a: string[], b: string[]) => a.length === b.length && a.every((v, i) => v === b[i]);

/**
 * What a PATCH changes on a ticket: only fields whose value differs. `values`: the custom property
 * values given, already checked against the ticket definitions (property_id → value, null clears), merged. Assigning sets assigned_by (and
 * first_assigned_at the first time); closing sets closed_at/closed_by, reopening (open, inprogress)
 * clears them; archiving keeps them. Empty: nothing to change.
 */
export function ticketChanges(
  before: TicketRow,
  body: UpdateTicketBody,
  ctx: RequestContext,
  now: Date,
  values?: Record<string, string | null>,
): TicketChanges {
  const c: TicketChanges = {};
  if (values) {
    const was = ticketValues(before);
    const next = { ...was };
    for (const [id, v] of Object.entries(values)) {
      if (v === null) delete next[id];
      else next[id] = v;
    }
    const sorted = Object.fromEntries(Object.entries(next).sort(([a], [b]) => (a < b ? -1 : 1)));
    if (JSON.stringify(sorted) !== JSON.stringify(was)) c.custom_properties = sorted;
  }
  if (body.subject !== undefined && body.subject !== before.subject) c.subject = body.subject;
  if (body.priority !== undefined && body.priority !== before.priority) c.priority = body.priority;
  if (body.labels !== undefined && !sameList(body.labels, before.labels)) c.labels = body.labels;
  if (body.due_date !== undefined) {
    const due = body.due_date === null ? null : new Date(body.due_date);
    if (!sameDate(due, before.due_date)) c.due_date = due;
  }
  if (body.assignee !== undefined && body.assignee !== before.assignee) {
    c.assignee = body.assignee;
    c.assigned_by = body.assignee === null ? null : ctx.token_id;
    if (body.assignee !== null && !before.first_assigned_at) c.first_assigned_at = now;
  }
  if (body.status !== undefined && body.status !== before.status) {
    c.status = body.status;
    if (body.status === 'closed') {
      c.closed_at = now;
      c.closed_by = ctx.token_id;
    } else if (body.status !== 'archived') {
      c.closed_at = null;
      c.closed_by = null;
    }
  }
  if (Object.keys(c).length) c.last_updated_by = ctx.token_id;
  return c;
}
