import { z } from 'zod';

/** Every figure is kept per 15-minute slot (UTC): every time zone's offset is a whole number of them. */
export const SLOT_MS = 15 * 60_000;
/** The longest period an analytics answer covers. */
export const MAX_PERIOD_DAYS = 366;
/** The longest period of an hourly series (744 buckets). */
export const MAX_HOURLY_PERIOD_DAYS = 31;
export const ANALYTICS_INTERVALS = ['day', 'hour'] as const;
export type AnalyticsInterval = (typeof ANALYTICS_INTERVALS)[number];

/**
 * Whether `tz` is an IANA time zone name the runtime knows (Europe/Paris, UTC). Offsets (`+01:00`) are
 * refused: Postgres reads them as POSIX zones, with the sign the other way round.
 */
export function isIanaTimeZone(tz: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(tz)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

const instant = (name: string) =>
  z.iso.datetime({ offset: true, error: `${name} must be an ISO 8601 date-time with Z or an offset (2026-11-01T00:00:00+01:00)` });

/** An optional phone filter (a phone id of the organization, within the token's phones). */
export const PhoneIdFilter = z.string().min(1, 'phone_id must not be empty').max(200).optional();

/**
 * The period of an analytics query: `from` (inclusive) and `to` (exclusive) instants, `tz` the IANA time
 * zone whose days and hours the series is cut in (default UTC), `interval` day or hour (default day).
 */
export const PeriodFields = {
  from: instant('from'),
  to: instant('to'),
  tz: z.string().max(64).refine(isIanaTimeZone, { message: 'tz must be an IANA time zone name (e.g. Europe/Paris, UTC)' }).default('UTC'),
  interval: z.enum(ANALYTICS_INTERVALS, { error: `interval must be one of ${ANALYTICS_INTERVALS.join(', ')}` }).default('day'),
};

/** from before to, and the span within MAX_PERIOD_DAYS (MAX_HOURLY_PERIOD_DAYS for an hourly series): 422 on `to`. */
export function refinePeriod(q: { from: string; to: string; interval?: AnalyticsInterval }, ctx: z.RefinementCtx): void {
  const from = Date.parse(q.from);
  const to = Date.parse(q.to);
  if (!Number.isFinite(from) || !Number.isFinite(to)) return; // the fields' own checks said so
  if (to <= from) {
    ctx.addIssue({ code: 'custom', path: ['to'], message: 'to must be after from' });
    return;
  }
  const days = q.interval === 'hour' ? MAX_HOURLY_PERIOD_DAYS : MAX_PERIOD_DAYS;
  if (to - from > days * 86_400_000) {
    ctx.addIssue({
      code: 'custom',
      path: ['to'],
      message: `the period must not be longer than ${days} days${q.interval === 'hour' ? ' with interval=hour' : ''}`,
    });
  }
}

/** The period as the service counts it: `from` down and `to` up to whole 15-minute slots. */
export function slotPeriod(from: string, to: string): { from: Date; to: Date } {
  return {
    from: new Date(Math.floor(Date.parse(from) / SLOT_MS) * SLOT_MS),
    to: new Date(Math.ceil(Date.parse(to) / SLOT_MS) * SLOT_MS),
  };
}
