import type { TaskRow } from '../../repositories/task-repository';
import { sameValue } from '../../imports/kept-id';
import { nextOccurrence, repeatOf } from '../../reminders/repeat';

/** The reminder columns of a task. */
export interface ReminderColumns {
  remind_at: Date | null;
  reminder_fired_at: Date | null;
  reminder_series_at: Date | null;
  reminder_index: number;
}

/**
 * An imported task's reminder. A time already passed is history: stored as fired, so it never fires
 * here. A repeating series whose time has passed is armed at its first occurrence after now (its past
 * ones are skipped, as after downtime); one that has ended stays fired. A future time is pending, as
 * any task's.
 */
export function importedReminder(remindAt: Date | null, setting: unknown, now: Date): ReminderColumns {
  if (!remindAt) return { remind_at: null, reminder_fired_at: null, reminder_series_at: null, reminder_index: 0 };
  if (remindAt > now) return { remind_at: remindAt, reminder_fired_at: null, reminder_series_at: remindAt, reminder_index: 0 };
  const repeat = repeatOf(setting);
  const next = repeat ? nextOccurrence(remindAt, repeat, 0, now) : null;
  if (next) return { remind_at: next.at, reminder_fired_at: null, reminder_series_at: remindAt, reminder_index: next.index };
  return { remind_at: remindAt, reminder_fired_at: remindAt, reminder_series_at: remindAt, reminder_index: 0 };
}

/**
 * Whether a rerun leaves the row's reminder as it is: the source's time and setting are the ones
 * imported before (the poller may have fired or re-armed it since; importing again must not re-arm it).
 */
export function sameReminderSource(
  row: Pick<TaskRow, 'reminder_series_at' | 'remind_at' | 'reminder_setting'>,
  remindAt: Date | null,
  setting: unknown,
): boolean {
  const start = row.reminder_series_at ?? row.remind_at;
  return (start?.getTime() ?? null) === (remindAt?.getTime() ?? null) && sameValue(row.reminder_setting, setting);
}
