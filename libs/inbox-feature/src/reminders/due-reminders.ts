import type { PrismaClient } from '@mapi/db';
import { writeEvents } from '@mapi/events';
import { mapTask } from '../map-task';
import { REMINDER_CHANNEL, type TaskRow } from '../repositories/task-repository';
import { nextOccurrence, repeatOf } from './repeat';

export interface ReminderRound {
  /** The tasks whose reminder this round fired (task.reminder written for each), as they were when it fired. */
  fired: TaskRow[];
  /** Of those, the repeating ones whose next occurrence this round armed: task id → its new remind_at. */
  rearmed: Map<string, Date>;
  /** Milliseconds (database clock) until the next pending reminder is due; null when none is pending. Negative: one is due but held by another claimer. */
  nextDueInMs: number | null;
}

/**
 * One round of the reminder poller, in one transaction: claims up to `limit` due reminders of every
 * organization (pending: remind_at set and passed, not fired, task not closed), skipping rows another
 * claimer or a PATCH holds (FOR UPDATE SKIP LOCKED), marks them fired and writes their task.reminder
 * events, then commits. The mark and the event commit together or not at all: a process killed
 * mid-round leaves the rows unfired and unlocked for the next claimer, and a fired reminder is never
 * claimed again — each reminder's event is written exactly once, whatever replicas run or restart.
 * A repeating reminder's next occurrence (the first after the database's now: occurrences missed
 * while nothing ran are skipped) is armed in that same transaction — remind_at moved, reminder_fired_at
 * cleared — so each occurrence also fires exactly once, and a series never loses or doubles its next
 * one across kills. Cross-organization on purpose (a scan, like the session manager's): each event
 * names its task's organization. Due-ness is the database's clock, the same for every replica.
 */
export function fireDueReminders(prisma: PrismaClient, limit: number): Promise<ReminderRound> {
  return prisma.$transaction(async (tx) => {
    const claimed = await tx.$queryRaw<{ task_id: string }[]>`
      WITH due AS (
        SELECT task_id FROM inbox_tasks
        WHERE remind_at IS NOT NULL AND reminder_fired_at IS NULL AND status <> 'closed' AND remind_at <= now()
        ORDER BY remind_at
        LIMIT ${limit}
        FOR UPDATE SKIP LOCKED)
      UPDATE inbox_tasks t SET reminder_fired_at = now() FROM due WHERE t.task_id = due.task_id
      RETURNING t.task_id`;
    const fired = claimed.length
      ? await tx.inboxTask.findMany({
          where: { task_id: { in: claimed.map((c) => c.task_id) } },
          orderBy: [{ remind_at: 'asc' }, { task_id: 'asc' }],
        })
      : [];
    const nexts = fired.flatMap((row) => {
      const repeat = repeatOf(row.reminder_setting);
      if (!repeat || !row.remind_at) return [];
      // reminder_fired_at is the database's now (the claim set it): the next occurrence is the first after it
      const next = nextOccurrence(
        row.reminder_series_at ?? row.remind_at,
        repeat,
        row.reminder_index,
        row.reminder_fired_at ?? row.remind_at,
      );
      return next ? [{ id: row.task_id, ...next }] : [];
    });
    if (nexts.length) {
      await tx.$executeRaw`
        UPDATE inbox_tasks t SET remind_at = v.at, reminder_index = v.idx, reminder_fired_at = NULL
        FROM unnest(${nexts.map((n) => n.id)}::uuid[], ${nexts.map((n) => n.at.toISOString())}::timestamptz[], ${nexts.map((n) => n.index)}::int[]) AS v(id, at, idx)
        WHERE t.task_id = v.id`;
      await tx.$executeRaw`SELECT pg_notify(${REMINDER_CHANNEL}, ${String(Math.min(...nexts.map((n) => n.at.getTime())))})`;
    }
    const rearmed = new Map(nexts.map((n) => [n.id, n.at]));
    const [next] = await tx.$queryRaw<{ ms: number | null }[]>`
      SELECT (EXTRACT(EPOCH FROM (min(remind_at) - now())) * 1000)::float8 AS ms FROM inbox_tasks
      WHERE remind_at IS NOT NULL AND reminder_fired_at IS NULL AND status <> 'closed'`;
    // last: writeEvents holds the outbox lock until the commit
    await writeEvents(
      tx,
      fired.map((row) => ({ type: 'task.reminder' as const, org_id: row.org_id, phone_id: row.phone_id, data: mapTask(row) })),
    );
    return { fired, rearmed, nextDueInMs: next?.ms ?? null };
  });
}
