import { dateOf, instantOf, startOfDay, wallClockOf } from './zoned-time';

/** Weekdays as a schedule names them, in the order of Date#getUTCDay (0 Sunday). */
export const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** Opening hours of one weekday: local `HH:MM` to `HH:MM`; an end at or before the start runs past midnight. */
export interface OpeningHours {
  start: string;
  end: string;
}

/** An organization's business hours (docs/services/analytics.md, "Business hours"). */
export interface BusinessSchedule {
  /** IANA time zone the hours and holidays are read in. */
  time_zone: string;
  /** Hours per weekday; a weekday absent or empty is closed. */
  weekly: Partial<Record<Weekday, readonly OpeningHours[]>>;
  /** Local dates (YYYY-MM-DD) with no business time at all, including the part of an overnight interval after their midnight. */
  holidays: readonly string[];
}

const DAY_MS = 86_400_000;
/** Past this, "never": a schedule whose hours are so few that the deadline is further is treated as having none. */
const HORIZON_DAYS = 366 * 20;
const CHUNK_DAYS = 7;

/** `HH:MM` (00:00–24:00) → minutes after midnight. */
export function minutesOf(hhmm: string): number {
  const [h, m] = hhmm.split(':').map(Number);
  return h * 60 + m;
}

/** Whether the schedule has any opening hours in its week (holidays aside). */
export function hasHours(s: BusinessSchedule): boolean {
  return WEEKDAYS.some((d) => (s.weekly[d]?.length ?? 0) > 0);
}

/**
 * The business intervals (instants, [start, end)) opened by the local days from the one holding
 * `fromDay` (a wall clock) for `days` days, in start order. Intervals may overlap (an overnight one
 * with the next day's first): the walkers below never count a millisecond twice.
 */
export function intervalsOf(s: BusinessSchedule, fromDay: number, days: number): [number, number][] {
  const holidays = new Set(s.holidays);
  const out: [number, number][] = [];
  for (let i = 0; i < days; i++) {
    const day = startOfDay(fromDay) + i * DAY_MS;
    const { date, weekday } = dateOf(day);
    if (holidays.has(date)) continue;
    const nextIsHoliday = holidays.has(dateOf(day + DAY_MS).date);
    for (const h of s.weekly[WEEKDAYS[weekday]] ?? []) {
      const start = minutesOf(h.start);
      const endMin = minutesOf(h.end);
      let end = endMin > start ? endMin : endMin + 1440;
      if (end > 1440 && nextIsHoliday) end = 1440;
      const a = instantOf(day + start * 60_000, s.time_zone);
      const b = instantOf(day + end * 60_000, s.time_zone);
      if (b > a) out.push([a, b]);
    }
  }
  return out.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
}

/** The intervals one local day opens (`intervalsOf(s, day, 1)`, `day` the wall clock of its start), possibly memoized. */
export type DayIntervals = (day: number) => readonly [number, number][];

/**
 * `intervalsOf` one local day at a time, memoized (at most `max` days kept): many business-time counts over the
 * same few days (the response samples of a batch) then convert each day's hours once.
 */
export function memoDays(s: BusinessSchedule, max = 4096): DayIntervals {
  const memo = new Map<number, readonly [number, number][]>();
  return (day) => {
    let v = memo.get(day);
    if (!v) {
      if (memo.size >= max) memo.clear();
      memo.set(day, (v = intervalsOf(s, day, 1)));
    }
    return v;
  };
}

/**
 * Business milliseconds between two instants: the time of [from, to) that falls in the schedule's
 * hours (DST changes counted as the clocks run: a night of 22:00–06:00 across a change lasts 7 or 9
 * hours), holidays excluded. 0 when `to` is not after `from`, or when the schedule has no hours.
 * `dayIntervals` (memoDays of the same schedule) gives the same answer, faster when called often.
 */
export function businessMsBetween(s: BusinessSchedule, from: number, to: number, dayIntervals?: DayIntervals): number {
  if (!(to > from) || !hasHours(s)) return 0;
  const first = wallClockOf(from, s.time_zone) - DAY_MS; // an overnight interval of the day before may cover `from`
  const days = Math.ceil((wallClockOf(to, s.time_zone) - startOfDay(first)) / DAY_MS) + 1;
  let intervals: readonly (readonly [number, number])[];
  if (dayIntervals) {
    const all: [number, number][] = [];
    for (let i = 0; i < days; i++) for (const iv of dayIntervals(startOfDay(first) + i * DAY_MS)) all.push([iv[0], iv[1]]);
    intervals = all.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  } else {
    intervals = intervalsOf(s, first, days);
  }
  let cursor = from;
  let total = 0;
  for (const [a, b] of intervals) {
    const start = Math.max(a, cursor);
    const end = Math.min(b, to);
    if (end > start) {
      total += end - start;
      cursor = end;
    }
  }
  return total;
}

/**
 * The deadline `ms` business milliseconds after `from`: the first instant by which that much business
 * time has passed since `from`. `from` itself when ms ≤ 0; null when the schedule has no hours (or so
 * few that the deadline is more than 20 years away): such a deadline never comes.
 */
export function addBusinessMs(s: BusinessSchedule, from: number, ms: number): number | null {
  if (ms <= 0) return from;
  if (!hasHours(s)) return null;
  let day = wallClockOf(from, s.time_zone) - DAY_MS;
  let left = ms;
  let cursor = from;
  for (let walked = 0; walked < HORIZON_DAYS; walked += CHUNK_DAYS) {
    for (const [a, b] of intervalsOf(s, day, CHUNK_DAYS)) {
      const start = Math.max(a, cursor);
      if (b <= start) continue;
      if (b - start >= left) return start + left;
      left -= b - start;
      cursor = b;
    }
    day = startOfDay(day) + CHUNK_DAYS * DAY_MS;
  }
  return null;
}

/** The deadline `minutes` business minutes after `from` (addBusinessMs). */
export const addBusinessMinutes = (s: BusinessSchedule, from: number, minutes: number): number | null =>
  addBusinessMs(s, from, minutes * 60_000);
