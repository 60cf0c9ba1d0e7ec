import type { RequestContext, UpdateTaskBody } from '@mapi/contracts';
import type { TaskChanges, TaskRow } from '../../repositories/task-repository';

const sameDate = (a: Date | null, b: Date | null) => (a?.getTime() ?? null) === (b?.getTime() ?? null);
const date = (v: string | null) => (v === null ? null : new Date(v));

/**
 * What a PATCH changes on a task: only fields whose value differs. A new remind_at re-arms the
 * reminder (reminder_fired_at cleared); closing sets completed_at/completed_by, reopening clears
 * them (a closed task's pending reminder does not fire; reopened, it fires if it has not). Empty:
 * nothing to change.
 */
export function taskChanges(before: TaskRow, body: UpdateTaskBody, ctx: RequestContext, now: Date): TaskChanges {
  const c: TaskChanges = {};
  if (body.title !== undefined && body.title !== before.title) c.title = body.title;
  if (body.notes !== undefined && body.notes !== before.notes) c.notes = body.notes;
  if (body.assignee !== undefined && body.assignee !== before.assignee) c.assignee = body.assignee;
  if (body.priority !== undefined && body.priority !== before.priority) c.priority = body.priority;
  if (body.due_date !== undefined && !sameDate(date(body.due_date), before.due_date)) c.due_date = date(body.due_date);
  if (body.remind_at !== undefined && !sameDate(date(body.remind_at), before.remind_at)) {
    c.remind_at = date(body.remind_at);
    c.reminder_fired_at = null;
  }
  if (body.status !== undefined && body.status !== before.status) {
    c.status = body.status;
    const closing = body.status === 'closed';
    c.completed_at = closing ? now : null;
    c.completed_by = closing ? ctx.token_id : null;
  }
  if (Object.keys(c).length) c.last_updated_by = ctx.token_id;
  return c;
}
