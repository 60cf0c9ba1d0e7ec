import type { Prisma } from '@mapi/db';
import { businessMsBetween, memoDays, type BusinessSchedule, type DayIntervals } from '../business-hours/business-time';
import { BusinessHoursRepository } from '../business-hours/business-hours-repository';
import { scheduleOf, type BusinessHoursRow } from '../business-hours/map-business-hours';

/**
 * The business milliseconds of a response (from the incoming message to the response) in its organization's
 * schedule as it is when the sample is written; null when the organization has no schedule.
 */
export type ResponseClock = (orgId: string, from: number, to: number) => number | null;

interface Memo {
  key: string;
  schedule: BusinessSchedule;
  days: DayIntervals;
}

/** Per organization, its schedule's days converted once (kept while the schedule is unchanged; at most MAX_ORGS, each at most 512 days). */
const memos = new Map<string, Memo>();
const MAX_ORGS = 256;

const keyOf = (row: BusinessHoursRow) =>
  JSON.stringify([row.time_zone, row.weekly, row.holidays, row.updated_at instanceof Date ? row.updated_at.getTime() : row.updated_at]);

function memoOf(row: BusinessHoursRow): Memo {
  const key = keyOf(row);
  const seen = memos.get(row.org_id);
  if (seen && seen.key === key) return seen;
  if (memos.size >= MAX_ORGS) memos.clear();
  const schedule = scheduleOf(row);
  const memo = { key, schedule, days: memoDays(schedule, 512) };
  memos.set(row.org_id, memo);
  return memo;
}

/**
 * The response clock of a batch: the schedules of its organizations read in the batch's transaction (one
 * query, none when no organization is named), so a sample counts the schedule in force when it is written.
 */
export async function responseClock(tx: Prisma.TransactionClient, orgIds: readonly string[]): Promise<ResponseClock> {
  const unique = [...new Set(orgIds)];
  const rows = unique.length ? await new BusinessHoursRepository(tx).of(unique) : new Map<string, BusinessHoursRow>();
  const byOrg = new Map([...rows.values()].map((row) => [row.org_id, memoOf(row)]));
  return (orgId, from, to) => {
    const memo = byOrg.get(orgId);
    return memo ? businessMsBetween(memo.schedule, from, to, memo.days) : null;
  };
}
