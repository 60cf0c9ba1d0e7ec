import { Errors, remindInOffset, type RequestContext, type UpdateTaskBody } from '@mapi/contracts';
import { nextOccurrence, repeatOf } from '../../reminders/repeat';
import type { TaskChanges, TaskRow } from '../../repositories/task-repository';

const sameDate = (a: Date | null, b: Date | null) => (a?.getTime() ?? null) === (b?.getTime() ?? null);
const date = (v: string | null) => (v === null ? null : new Date(v));
/** A stored setting's remind_in as an offset from the due date (ms); null when it has none. */
const remindInOf = (setting: unknown): number | null => {
  const r = (setting as { remind_in?: unknown } | null)?.remind_in;
  return typeof r === 'string' ? remindInOffset(r) : null;
};

/**
 * What a PATCH changes on a task: only fields whose value differs. A new remind_at re-arms the
 * reminder (reminder_fired_at cleared) and starts a repeating series again from it; closing sets
 * completed_at/completed_by, reopening clears them (a closed task's pending reminder does not fire;
 * reopened, it fires if it has not). A repeat given to a task whose reminder has fired arms its next
 * occurrence after `now`. A repeat without a remind_at is 422. With remind_in, remind_at is the due date
 * plus that offset, set again (re-armed) when the due date or the setting changes; an explicit remind_at
 * beside it, or no due date, is 422. Empty: nothing to change.
 */
export function taskChanges(before: TaskRow, body: UpdateTaskBody, ctx: RequestContext, now: Date): TaskChanges {
  const c: TaskChanges = {};
  if (body.title !== undefined && body.title !== before.title) c.title = body.title;
  if (body.notes !== undefined && body.notes !== before.notes) c.notes = body.notes;
  if (body.assignee !== undefined && body.assignee !== before.assignee) c.assignee = body.assignee;
  if (body.priority !== undefined && body.priority !== before.priority) c.priority = body.priority;
  if (body.due_date !== undefined && !sameDate(date(body.due_date), before.due_date)) c.due_date = date(body.due_date);
  const setting = body.reminder_setting === undefined ? before.reminder_setting : body.reminder_setting;
  if (body.reminder_setting !== undefined && JSON.stringify(body.reminder_setting) !== JSON.stringify(before.reminder_setting))
    c.reminder_setting = body.reminder_setting;
  const remindIn = remindInOf(setting);
  let target = body.remind_at === undefined ? undefined : date(body.remind_at);
  if (remindIn !== null) {
    // remind_at follows the due date: set from it, and moved with it
    if (body.remind_at !== undefined)
      throw Errors.validation({
        'body.remind_at': {
          message: 'the reminder is relative to the due date (reminder_setting.remind_in): give remind_at or remind_in, not both',
        },
      });
    const due = c.due_date !== undefined ? c.due_date : before.due_date;
    if (!due) {
      const field = body.due_date === null ? 'body.due_date' : 'body.reminder_setting.remind_in';
      throw Errors.validation({
        [field]: {
          message: 'remind_in is relative to the due date: a task with remind_in needs due_date (clear reminder_setting with it)',
        },
      });
    }
    if (c.due_date !== undefined || c.reminder_setting !== undefined) target = new Date(due.getTime() + remindIn);
  }
  if (target !== undefined && !sameDate(target, before.remind_at)) {
    c.remind_at = target;
    c.reminder_fired_at = null;
    c.reminder_series_at = target;
    c.reminder_index = 0;
  }
  const repeat = repeatOf(setting);
  const remindAt = c.remind_at !== undefined ? c.remind_at : before.remind_at;
  if (repeat && !remindAt) {
    const field = body.reminder_setting ? 'body.reminder_setting.repeat' : 'body.remind_at';
    throw Errors.validation({
      [field]: { message: 'a repeating reminder needs remind_at (its first time); clear reminder_setting with it' },
    });
  }
  if (repeat && remindAt && c.remind_at === undefined) {
    // a series on a reminder set before repeats were: it starts at the current remind_at
    const start = before.reminder_series_at ?? remindAt;
    if (!before.reminder_series_at) c.reminder_series_at = start;
    if (c.reminder_setting !== undefined && before.reminder_fired_at) {
      const next = nextOccurrence(start, repeat, before.reminder_index, now);
      if (next) {
        c.remind_at = next.at;
        c.reminder_index = next.index;
        c.reminder_fired_at = null;
      }
    }
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
