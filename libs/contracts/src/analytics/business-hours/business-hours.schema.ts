import { z } from 'zod';
import { isIanaTimeZone } from '../period/period';

export const WEEKDAY_NAMES = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type WeekdayName = (typeof WEEKDAY_NAMES)[number];
/** Opening intervals per weekday at most. */
export const MAX_DAY_INTERVALS = 8;
/** Holidays per schedule at most. */
export const MAX_HOLIDAYS = 500;

// The document's pattern is the shape (5 characters of digits and colons); the check, the clock itself.
const clock = (name: string) => {
  const message = `${name} must be a local time HH:MM between 00:00 and 24:00`;
  return z
    .string()
    .regex(/^[0-9:]{5}$/, { message, abort: true })
    .refine((v) => /^(([01]\d|2[0-3]):[0-5]\d|24:00)$/.test(v), { message });
};
const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** Local opening hours of a weekday; an end at or before the start runs past midnight into the next day. */
export const OpeningHoursSchema = z
  .strictObject({ start: clock('start'), end: clock('end') })
  .refine((h) => h.start !== '24:00', { path: ['start'], message: 'start must be before 24:00' })
  .refine((h) => h.start !== h.end, { path: ['end'], message: 'end must differ from start (an end before the start runs past midnight)' });
export type OpeningHours = z.infer<typeof OpeningHoursSchema>;

const dayHours = z
  .array(OpeningHoursSchema)
  .max(MAX_DAY_INTERVALS, { message: `at most ${MAX_DAY_INTERVALS} intervals a day` })
  .superRefine((hours, ctx) => {
    // the day's own part of each interval (an overnight one up to midnight) must not overlap another's
    const spans = hours
      .map((h, i) => ({ i, a: minutes(h.start), b: minutes(h.end) > minutes(h.start) ? minutes(h.end) : 1440 }))
      .sort((x, y) => x.a - y.a);
    for (let k = 1; k < spans.length; k++) {
      if (spans[k].a < spans[k - 1].b) ctx.addIssue({ code: 'custom', path: [spans[k].i], message: 'intervals of a day must not overlap' });
    }
  });

/** Hours per weekday (monday … sunday); a weekday left out or empty is closed. */
export const WeeklyHoursSchema = z.strictObject(
  Object.fromEntries(WEEKDAY_NAMES.map((d) => [d, dayHours.optional()])) as Record<WeekdayName, z.ZodOptional<typeof dayHours>>,
);

const holidayMessage = 'each holiday must be a date YYYY-MM-DD';
/** A calendar date that exists (2026-02-30 does not); the document's pattern is the shape only. */
const isDate = (v: string) => /^\d{4}-\d{2}-\d{2}$/.test(v) && new Date(`${v}T00:00:00Z`).toISOString().slice(0, 10) === v;
const holiday = z
  .string()
  .regex(/^[0-9-]{10}$/, { message: holidayMessage, abort: true })
  .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && isDate(v), { message: holidayMessage });

/** PUT /analytics/business-hours: the whole schedule, replaced. */
export const BusinessHoursBody = z
  .strictObject({
    time_zone: z
      .string({ error: 'time_zone is required (an IANA time zone name, e.g. Europe/Paris)' })
      .max(64)
      .refine(isIanaTimeZone, { message: 'time_zone must be an IANA time zone name (e.g. Europe/Paris, UTC)' }),
    weekly: WeeklyHoursSchema,
    holidays: z
      .array(holiday)
      .max(MAX_HOLIDAYS, { message: `at most ${MAX_HOLIDAYS} holidays` })
      .default([]),
  })
  .refine((b) => WEEKDAY_NAMES.some((d) => (b.weekly[d]?.length ?? 0) > 0), {
    path: ['weekly'],
    message: 'at least one weekday must have hours (DELETE /analytics/business-hours to count SLAs in wall-clock time)',
  });
export type BusinessHoursBody = z.infer<typeof BusinessHoursBody>;

/** The schedule as answered: every weekday listed (empty: closed), holidays sorted and unique. */
export const BusinessHoursSchema = z.object({
  time_zone: z.string(),
  weekly: z.object(
    Object.fromEntries(WEEKDAY_NAMES.map((d) => [d, z.array(z.object({ start: z.string(), end: z.string() }))])) as Record<
      WeekdayName,
      z.ZodArray<z.ZodObject<{ start: z.ZodString; end: z.ZodString }>>
    >,
  ),
  holidays: z.array(z.string()),
  updated_at: z.string(),
});
export type BusinessHours = z.infer<typeof BusinessHoursSchema>;

/** GET / PUT / DELETE /analytics/business-hours answer: the schedule, or null when none is set. */
export const BusinessHoursResultSchema = z.object({ business_hours: BusinessHoursSchema.nullable() });
export type BusinessHoursResult = z.infer<typeof BusinessHoursResultSchema>;
