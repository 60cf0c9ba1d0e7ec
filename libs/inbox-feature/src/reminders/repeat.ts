import type { ReminderRepeat } from '@mapi/contracts';

const DAY_MS = 86_400_000;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** `months` months after `from` (UTC), the day of month clamped to the month's last day (Jan 31 + 1 month: Feb 28/29). */
function addMonths(from: Date, months: number): Date {
  const y = from.getUTCFullYear();
  const m = from.getUTCMonth() + months;
  const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  const at = new Date(from.getTime());
  at.setUTCFullYear(y, m, Math.min(from.getUTCDate(), last));
  return at;
}

/** The `index`-th occurrence of a series that starts at `start` (0: start itself), counted from the start so clamped days do not drift. */
export function occurrence(start: Date, repeat: Pick<ReminderRepeat, 'frequency' | 'interval'>, index: number): Date {
  const n = repeat.frequency * index;
  switch (repeat.interval) {
    case 'days':
      return new Date(start.getTime() + n * DAY_MS);
    case 'weeks':
      return new Date(start.getTime() + n * 7 * DAY_MS);
    case 'months':
      return addMonths(start, n);
    default:
      return addMonths(start, n * 12);
  }
}

/** Whether an occurrence falls within the series' end (its count, or its last day / instant). */
function withinEnd(repeat: ReminderRepeat, index: number, at: Date): boolean {
  if (repeat.end === 'after') return index < Number(repeat.on);
  if (repeat.end === 'on' && repeat.on) {
    const end = new Date(repeat.on).getTime() + (DATE_ONLY.test(repeat.on) ? DAY_MS : 1);
    return at.getTime() < end;
  }
  return true;
}

/**
 * The series' next occurrence after occurrence `index`, strictly later than `after` (occurrences that
 * passed meanwhile — the service down, a reminder reopened late — are skipped, not made up); null
 * when the series has ended.
 */
export function nextOccurrence(start: Date, repeat: ReminderRepeat, index: number, after: Date): { at: Date; index: number } | null {
  const stepMs =
    repeat.interval === 'days' ? repeat.frequency * DAY_MS : repeat.interval === 'weeks' ? repeat.frequency * 7 * DAY_MS : null;
  let k = index + 1;
  if (stepMs) {
    k = Math.max(k, Math.floor((after.getTime() - start.getTime()) / stepMs) + 1);
  } else {
    const months = repeat.frequency * (repeat.interval === 'years' ? 12 : 1);
    const elapsed = (after.getUTCFullYear() - start.getUTCFullYear()) * 12 + (after.getUTCMonth() - start.getUTCMonth());
    k = Math.max(k, Math.floor(elapsed / months) - 1);
  }
  let at = occurrence(start, repeat, k);
  while (at.getTime() <= after.getTime()) at = occurrence(start, repeat, ++k);
  return withinEnd(repeat, k, at) ? { at, index: k } : null;
}

/** The repeat of a stored reminder_setting, if it has one. */
export function repeatOf(setting: unknown): ReminderRepeat | null {
  const repeat = (setting as { repeat?: ReminderRepeat } | null)?.repeat;
  return repeat && typeof repeat === 'object' && repeat.frequency >= 1 ? repeat : null;
}
