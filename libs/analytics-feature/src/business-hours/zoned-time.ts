/** Wall-clock ↔ instant conversions in an IANA time zone, with the runtime's Intl data (no library). */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The wall clock of `instant` in `timeZone`, as the epoch ms of that wall clock read as UTC (seconds precision). */
export function wallClockOf(instant: number, timeZone: string): number {
  const parts: Record<string, number> = {};
  for (const p of formatterOf(timeZone).formatToParts(new Date(instant))) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  return Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second) + (((instant % 1000) + 1000) % 1000);
}

/** The zone's offset from UTC at `instant`, in ms (Europe/Paris in winter: 3 600 000). */
export function offsetAt(instant: number, timeZone: string): number {
  return wallClockOf(instant, timeZone) - instant;
}

const DAY_MS = 86_400_000;

/**
 * The instant a wall clock (epoch ms of it read as UTC) names in `timeZone`. A wall clock a DST change
 * repeats (autumn) is its first occurrence; one a change skips (spring) is read with the offset before
 * the change, so it lands as far after the gap as it was into it (02:30 → 03:30 in Europe/Paris) —
 * Temporal's "compatible" disambiguation.
 */
export function instantOf(wallClock: number, timeZone: string): number {
  const before = offsetAt(wallClock - DAY_MS, timeZone);
  const after = offsetAt(wallClock + DAY_MS, timeZone);
  const valid = [...new Set([before, after])].map((o) => wallClock - o).filter((t) => offsetAt(t, timeZone) === wallClock - t);
  if (valid.length) return Math.min(...valid);
  return wallClock - before;
}

/** The local calendar date (YYYY-MM-DD) and weekday (0 Sunday … 6 Saturday) of a wall clock. */
export function dateOf(wallClock: number): { date: string; weekday: number } {
  const d = new Date(wallClock);
  return { date: d.toISOString().slice(0, 10), weekday: d.getUTCDay() };
}

/** The wall clock (read as UTC) of the start of the local day holding `wallClock`. */
export const startOfDay = (wallClock: number) => Math.floor(wallClock / DAY_MS) * DAY_MS;
