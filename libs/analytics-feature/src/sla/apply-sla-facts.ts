import type { Prisma } from '@mapi/db';
import { BusinessHoursRepository } from '../business-hours/business-hours-repository';
import { scheduleOf } from '../business-hours/map-business-hours';
import { planWaits, type PlannedWait } from './plan-waits';
import { SlaPolicyRepository } from './sla-policy-repository';
import { chatKey, copyKey, type SlaLabelFact, type SlaMessageFact } from './sla-facts';

/** pg_notify channel: a wait was armed (payload: its due time, epoch ms); the SLA pollers plan for it. */
export const SLA_CHANNEL = 'mapi_sla_timers';

export interface SlaApplyOptions {
  now: number;
  minuteMs: number;
  lateCutoffMs: number;
}

/** Per key, the fact with the greatest `at`. */
function latest<T extends { at: number }>(facts: T[], key: (f: T) => string): T[] {
  const by = new Map<string, T>();
  for (const f of facts) if ((by.get(key(f))?.at ?? -Infinity) < f.at) by.set(key(f), f);
  return [...by.values()].sort((a, b) => key(a).localeCompare(key(b)));
}

/**
 * One batch of message facts, in the caller's transaction (docs/services/analytics.md "Breaches"):
 * 1. replies (from_me): each chat copy's latest reply kept (analytics_sla_chats, never moved back), and
 *    its open waits started at or before a reply answered — those still pending with the reply at or
 *    before their deadline are cancelled; a pending one replied to after it stays for the poller;
 * 2. incoming messages: the waits planWaits gives armed, one open wait per (policy, chat copy): an
 *    earlier message of a pending wait (out of order) moves its start and deadline back; a wait
 *    breached or answered is never touched. The armed deadlines are announced (pg_notify).
 * Order-independent: replies are applied before incoming messages, and a message older than its
 * chat's latest reply arms nothing, so a batch (or redelivery) in any order ends the same.
 */
export async function applySlaFacts(tx: Prisma.TransactionClient, facts: SlaMessageFact[], o: SlaApplyOptions): Promise<PlannedWait[]> {
  const replies = latest(
    facts.filter((f) => f.from_me),
    copyKey,
  );
  if (replies.length) {
    const cols = {
      orgs: replies.map((r) => r.org_id),
      phones: replies.map((r) => r.phone_id),
      chats: replies.map((r) => r.chat_id),
      ats: replies.map((r) => new Date(r.at).toISOString()),
    };
    await tx.$executeRaw`
      INSERT INTO analytics_sla_chats (org_id, phone_id, chat_id, last_out_at)
      SELECT * FROM unnest(${cols.orgs}::uuid[], ${cols.phones}::text[], ${cols.chats}::text[], ${cols.ats}::timestamptz[])
      ON CONFLICT (org_id, phone_id, chat_id) DO UPDATE
      SET last_out_at = GREATEST(analytics_sla_chats.last_out_at, EXCLUDED.last_out_at)`;
    const all = facts.filter((f) => f.from_me);
    await tx.$executeRaw`
      WITH r AS (
        SELECT * FROM unnest(${all.map((r) => r.org_id)}::uuid[], ${all.map((r) => r.phone_id)}::text[],
                             ${all.map((r) => r.chat_id)}::text[], ${all.map((r) => new Date(r.at).toISOString())}::timestamptz[])
          AS r(org_id, phone_id, chat_id, at)),
      answered AS (
        SELECT t.timer_id, min(r.at) AS at FROM analytics_sla_timers t
        JOIN r ON r.org_id = t.org_id AND r.phone_id = t.phone_id AND r.chat_id = t.chat_id AND r.at >= t.started_at
        WHERE t.answered_at IS NULL
        GROUP BY t.timer_id ORDER BY t.timer_id)
      UPDATE analytics_sla_timers t
      SET answered_at = a.at, state = CASE WHEN t.state = 'pending' AND a.at <= t.due_at THEN 'cancelled' ELSE t.state END
      FROM answered a WHERE t.timer_id = a.timer_id`;
  }
  const incoming = facts.filter((f) => !f.from_me && f.at >= o.now - o.lateCutoffMs);
  if (!incoming.length) return [];
  const orgIds = [...new Set(incoming.map((f) => f.org_id))].sort();
  const policies = await new SlaPolicyRepository(tx).enabledOf(orgIds);
  if (!policies.length) return [];
  const copies = latest(incoming, copyKey);
  // one after the other: an interactive transaction runs its statements on one connection anyway
  const outs = await tx.$queryRaw<{ org_id: string; phone_id: string; chat_id: string; at: Date | null }[]>`
      SELECT c.org_id::text, c.phone_id, c.chat_id, GREATEST(s.last_out_at, a.last_outgoing_at) AS at
      FROM unnest(${copies.map((c) => c.org_id)}::uuid[], ${copies.map((c) => c.phone_id)}::text[], ${copies.map((c) => c.chat_id)}::text[])
        AS c(org_id, phone_id, chat_id)
      LEFT JOIN analytics_sla_chats s ON s.org_id = c.org_id AND s.phone_id = c.phone_id AND s.chat_id = c.chat_id
      LEFT JOIN analytics_chat_states a ON a.org_id = c.org_id AND a.phone_id = c.phone_id AND a.chat_id = c.chat_id`;
  const labels = await tx.analyticsSlaChatLabels.findMany({
    where: {
      OR: orgIds.map((org_id) => ({
        org_id,
        chat_id: { in: [...new Set(copies.filter((c) => c.org_id === org_id).map((c) => c.chat_id))] },
      })),
    },
  });
  const hours = await new BusinessHoursRepository(tx).of(orgIds);
  const waits = planWaits({
    incoming,
    policies,
    schedules: new Map([...hours].map(([org, row]) => [org, scheduleOf(row)])),
    lastOut: new Map(outs.filter((r) => r.at !== null).map((r) => [copyKey(r), (r.at as Date).getTime()])),
    labels: new Map(labels.map((l) => [chatKey(l), l.label_ids])),
    now: o.now,
    minuteMs: o.minuteMs,
    lateCutoffMs: o.lateCutoffMs,
  });
  if (!waits.length) return [];
  const iso = (ms: number) => new Date(ms).toISOString();
  await tx.$executeRaw`
    INSERT INTO analytics_sla_timers AS t (org_id, policy_id, phone_id, chat_id, message_id, started_at, due_at, business_hours)
    SELECT * FROM unnest(${waits.map((w) => w.org_id)}::uuid[], ${waits.map((w) => w.policy_id)}::uuid[], ${waits.map((w) => w.phone_id)}::text[],
                         ${waits.map((w) => w.chat_id)}::text[], ${waits.map((w) => w.message_id)}::text[],
                         ${waits.map((w) => iso(w.started_at))}::timestamptz[], ${waits.map((w) => iso(w.due_at))}::timestamptz[],
                         ${waits.map((w) => w.business_hours)}::boolean[])
    ON CONFLICT (policy_id, phone_id, chat_id) WHERE answered_at IS NULL DO UPDATE
    SET message_id = EXCLUDED.message_id, started_at = EXCLUDED.started_at, due_at = EXCLUDED.due_at, business_hours = EXCLUDED.business_hours
    WHERE t.state = 'pending' AND EXCLUDED.started_at < t.started_at`;
  await tx.$executeRaw`SELECT pg_notify(${SLA_CHANNEL}, ${String(Math.min(...waits.map((w) => w.due_at)))})`;
  return waits;
}

/** A batch of chat.label.updated facts: each chat's labels replaced only by a newer event's. */
export async function applyLabelFacts(tx: Prisma.TransactionClient, facts: SlaLabelFact[]): Promise<void> {
  const newest = new Map<string, SlaLabelFact>();
  for (const f of facts) if ((newest.get(chatKey(f))?.version ?? -Infinity) < f.version) newest.set(chatKey(f), f);
  const rows = [...newest.values()].sort((a, b) => chatKey(a).localeCompare(chatKey(b)));
  if (!rows.length) return;
  await tx.$executeRaw`
    INSERT INTO analytics_sla_chat_labels AS l (org_id, chat_id, label_ids, version)
    SELECT x.org_id, x.chat_id, ARRAY(SELECT jsonb_array_elements_text(x.labels)), x.version
    FROM unnest(${rows.map((r) => r.org_id)}::uuid[], ${rows.map((r) => r.chat_id)}::text[],
                ${rows.map((r) => JSON.stringify(r.label_ids))}::jsonb[], ${rows.map((r) => new Date(r.version).toISOString())}::timestamptz[])
      AS x(org_id, chat_id, labels, version)
    ON CONFLICT (org_id, chat_id) DO UPDATE SET label_ids = EXCLUDED.label_ids, version = EXCLUDED.version
    WHERE l.version < EXCLUDED.version`;
}
