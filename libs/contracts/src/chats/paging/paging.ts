import { z } from 'zod';

/**
 * Largest accepted `limit`, inclusive, of every chats listing. The spec's default (2000) must itself
 * be valid, so a limit of 2000 is accepted and anything above it is a 422 (docs/decisions.md).
 */
export const MAX_PAGE_LIMIT = 2000;

/** A whole number from a query string, with the spec 4.1 texts ("limit should be less than or equal to 2000"). */
export const intFromQuery = (name: string, min: number, max?: number) => {
  let n = z.coerce
    .number({ error: `${name} must be a number` })
    .int(`${name} must be a whole number`)
    .min(min, `${name} should be at least ${min}`);
  if (max !== undefined) n = n.max(max, `${name} should be less than or equal to ${max}`);
  // Plain decimal notation only: '0x10', '1e3' or '' are not numbers here.
  return z.preprocess((v) => (typeof v === 'string' && !/^-?\d+(\.\d+)?$/.test(v.trim()) ? Number.NaN : v), n);
};

/** offset (default 0) and limit (default and maximum 2000), as GET messages (spec 4.1) takes them. */
export const pageFields = {
  offset: intFromQuery('offset', 0).default(0),
  limit: intFromQuery('limit', 1, MAX_PAGE_LIMIT).default(MAX_PAGE_LIMIT),
};

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * A time bound from a query string: a date (`2025-04-25`, a whole UTC day), an ISO 8601 date-time
 * (`2025-04-25T10:00:00Z`; without an offset it is UTC), or epoch milliseconds. An impossible date
 * (`2025-04-31`) is refused rather than rolled over. `end` makes a date mean the end of that day.
 */
export function parseTimeBound(value: string, end: boolean): Date | null {
  const v = value.trim();
  if (/^\d{10,16}$/.test(v)) return new Date(Number(v));
  const d = DATE_ONLY.exec(v);
  if (d) {
    const [y, m, day] = [Number(d[1]), Number(d[2]), Number(d[3])];
    const at = new Date(Date.UTC(y, m - 1, day));
    if (at.getUTCFullYear() !== y || at.getUTCMonth() !== m - 1 || at.getUTCDate() !== day) return null;
    return end ? new Date(at.getTime() + 86_400_000 - 1) : at;
  }
  if (!DATE_TIME.test(v)) return null;
  const [datePart] = v.split(/[T ]/i);
  if (!parseTimeBound(datePart, false)) return null; // the calendar date itself must exist
  const iso = v.replace(' ', 'T').replace(/([+-]\d{2})(\d{2})$/, '$1:$2');
  const at = new Date(/(Z|[+-]\d{2}:\d{2})$/i.test(iso) ? iso : `${iso}Z`);
  return Number.isNaN(at.getTime()) ? null : at;
}

const timeBound = (name: string, end: boolean) =>
  z.string().transform((v, ctx) => {
    const at = parseTimeBound(v, end);
    if (!at) {
      ctx.addIssue({
        code: 'custom',
        message: `${name} must be a date (2025-04-25), an ISO 8601 date-time (2025-04-25T00:00:00Z) or epoch milliseconds`,
      });
      return z.NEVER;
    }
    return at.toISOString();
  });

/** start_time / end_time (both inclusive), as ISO strings once parsed; end before start is a 422 on end_time. */
export const timeRangeFields = {
  start_time: timeBound('start_time', false).optional(),
  end_time: timeBound('end_time', true).optional(),
};

export function refineTimeRange(q: { start_time?: string; end_time?: string }, ctx: z.RefinementCtx): void {
  if (q.start_time && q.end_time && q.end_time < q.start_time) {
    ctx.addIssue({ code: 'custom', path: ['end_time'], message: 'end_time must not be before start_time' });
  }
}

/** `from`/`to` (1-based positions of the first and last item returned) and `count`, as GET messages answers. */
export function pagePositions(offset: number, count: number): { from: number; to: number; count: number } {
  return { from: count ? offset + 1 : offset, to: offset + count, count };
}
