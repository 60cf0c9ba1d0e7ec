import { WEEKDAY_NAMES, type BusinessHours, type OpeningHours } from '@mapi/contracts';
import type { BusinessSchedule } from './business-time';

/** A row of analytics_business_hours. */
export interface BusinessHoursRow {
  org_id: string;
  time_zone: string;
  weekly: unknown;
  holidays: string[];
  updated_at: Date;
}

/** The stored weekly hours, every weekday listed (a malformed entry reads as closed). */
function weeklyOf(weekly: unknown): BusinessHours['weekly'] {
  const w = (weekly && typeof weekly === 'object' ? weekly : {}) as Record<string, unknown>;
  const day = (v: unknown): OpeningHours[] =>
    Array.isArray(v)
      ? v
          .filter((h): h is OpeningHours => !!h && typeof h.start === 'string' && typeof h.end === 'string')
          .map((h) => ({ start: h.start, end: h.end }))
      : [];
  return Object.fromEntries(WEEKDAY_NAMES.map((d) => [d, day(w[d])])) as BusinessHours['weekly'];
}

/** analytics_business_hours row → the API's schedule. */
export function mapBusinessHours(row: BusinessHoursRow): BusinessHours {
  return {
    time_zone: row.time_zone,
    weekly: weeklyOf(row.weekly),
    holidays: [...new Set(row.holidays)].sort(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** analytics_business_hours row → what the business-time math reads. */
export function scheduleOf(row: BusinessHoursRow): BusinessSchedule {
  return { time_zone: row.time_zone, weekly: weeklyOf(row.weekly), holidays: row.holidays };
}
