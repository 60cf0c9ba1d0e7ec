import type { SlaBreach, SlaKind } from '@mapi/contracts';
import type { PrismaClient } from '@mapi/db';
import { writeEvents } from '@mapi/events';

export interface BreachRound {
  /** The breaches this round fired (sla.breached written for each). */
  fired: SlaBreach[];
  /** Milliseconds (database clock) until the next pending wait fires; null when none is pending. */
  nextDueInMs: number | null;
}

interface ClaimedRow {
  timer_id: string;
  org_id: string;
  policy_id: string;
  phone_id: string;
  chat_id: string;
  message_id: string;
  started_at: Date;
  due_at: Date;
  business_hours: boolean;
  fired_at: Date;
  name: string;
  kind: string;
  minutes: number;
  label_id: string | null;
  policy_phone_id: string | null;
}

/** A claimed wait → the sla.breached payload. */
export function breachOf(r: ClaimedRow): SlaBreach {
  return {
    breach_id: r.timer_id,
    policy_id: r.policy_id,
    policy_name: r.name,
    kind: r.kind as SlaKind,
    minutes: r.minutes,
    label_id: r.label_id,
    policy_phone_id: r.policy_phone_id,
    phone_id: r.phone_id,
    chat_id: r.chat_id,
    message_id: r.message_id,
    waiting_since: r.started_at.toISOString(),
    due_at: r.due_at.toISOString(),
    breached_at: r.fired_at.toISOString(),
    business_hours: r.business_hours,
  };
}

/**
 * One round of the SLA poller, in one transaction (as the task reminders, decision 0052): claims up to
 * `limit` pending waits of every organization whose deadline passed `fireDelayMs` ago and that were armed
 * at least `armGraceMs` ago (a wait armed after its deadline, from a consumer's backlog, leaves the
 * replies later in that backlog the time to cancel it), skipping rows
 * another claimer or a reply holds (FOR UPDATE SKIP LOCKED), marks them breached and writes their
 * sla.breached events, then commits. The mark and the event commit together or not at all: a process
 * killed mid-round leaves the rows pending and unlocked for the next claimer, and a breached wait is
 * never claimed again — each breach's event is written exactly once, whatever replicas run or restart.
 * Cross-organization on purpose: each event names its wait's organization. Due-ness is the database's clock.
 */
export function fireDueBreaches(prisma: PrismaClient, limit: number, fireDelayMs: number, armGraceMs = 0): Promise<BreachRound> {
  return prisma.$transaction(async (tx) => {
    const rows = await tx.$queryRaw<ClaimedRow[]>`
      WITH due AS (
        SELECT timer_id FROM analytics_sla_timers
        WHERE state = 'pending' AND due_at <= now() - make_interval(secs => ${fireDelayMs / 1000}::float8)
          AND created_at <= now() - make_interval(secs => ${armGraceMs / 1000}::float8)
        ORDER BY due_at
        LIMIT ${limit}
        FOR UPDATE SKIP LOCKED),
      fired AS (
        UPDATE analytics_sla_timers t SET state = 'breached', fired_at = now() FROM due WHERE t.timer_id = due.timer_id
        RETURNING t.*)
      SELECT f.timer_id::text, f.org_id::text, f.policy_id::text, f.phone_id, f.chat_id, f.message_id, f.started_at, f.due_at,
             f.business_hours, f.fired_at, p.name, p.kind, p.minutes, p.label_id, p.phone_id AS policy_phone_id
      FROM fired f JOIN analytics_sla_policies p ON p.policy_id = f.policy_id
      ORDER BY f.due_at, f.timer_id`;
    const [next] = await tx.$queryRaw<{ ms: number | null }[]>`
      SELECT (EXTRACT(EPOCH FROM (min(GREATEST(due_at + make_interval(secs => ${fireDelayMs / 1000}::float8),
                                               created_at + make_interval(secs => ${armGraceMs / 1000}::float8))) - now())) * 1000)::float8 AS ms
      FROM analytics_sla_timers WHERE state = 'pending'`;
    const fired = rows.map(breachOf);
    // last: writeEvents holds the outbox lock until the commit
    await writeEvents(
      tx,
      rows.map((r, i) => ({ type: 'sla.breached' as const, org_id: r.org_id, phone_id: r.phone_id, data: fired[i] })),
    );
    return { fired, nextDueInMs: next?.ms ?? null };
  });
}
