import type { Prisma } from '@mapi/db';
import { BusinessHoursRepository } from '../business-hours/business-hours-repository';
import { scheduleOf } from '../business-hours/map-business-hours';
import { FlagRuleRepository } from './flag-rule-repository';
import { orgChatKey, type FlagFact, type FlagMessageFact, type FlagStateFact } from './flag-facts';
import { planFlags, type PlannedFlag } from './plan-flags';

/** pg_notify channel: a flag or unflag job was armed (payload: its due time, epoch ms); the flag workers plan for it. */
export const FLAG_CHANNEL = 'mapi_flag_jobs';

export interface FlagApplyOptions {
  now: number;
  minuteMs: number;
  lateCutoffMs: number;
  modelOn: boolean;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** Per key, the fact with the greatest `rank`. */
function newest<T>(facts: T[], key: (f: T) => string, rank: (f: T) => number): T[] {
  const by = new Map<string, T>();
  for (const f of facts) {
    const had = by.get(key(f));
    if (!had || rank(had) < rank(f)) by.set(key(f), f);
  }
  return [...by.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([, f]) => f);
}

/**
 * One batch of the flagging intake, in the caller's transaction (docs/services/analytics.md "Flagging"):
 * 1. flag states (message.flagged / unflagged): each message's mark replaced only by a newer event's;
 * 2. replies (message.created from the phone): each chat's latest reply kept (never moved back); pending
 *    flag jobs of messages at or before it cancelled (answered in time);
 * 3. unflag jobs: every message of the touched chats flagged now, at or before the chat's latest reply,
 *    whose flag was set no later than that reply (to the second) — whichever of the reply and the flag
 *    event arrived first;
 * 4. incoming messages: the flag jobs planFlags gives, one per (rule, message); a waiting rule's deadline counted in
 *    the organization's business hours when it has a schedule.
 * Jobs are keyed (partial unique indexes), so a redelivered or replayed batch arms nothing twice.
 * Answers the earliest due time armed (null: none).
 */
export async function applyFlagFacts(tx: Prisma.TransactionClient, facts: FlagFact[], o: FlagApplyOptions): Promise<number | null> {
  const states = newest(
    facts.filter((f): f is FlagStateFact => f.type === 'state'),
    (f) => `${f.org_id}\u0000${f.message_id}`,
    (f) => f.version,
  );
  const messages = facts.filter((f): f is FlagMessageFact => f.type === 'message');
  const replies = newest(
    messages.filter((f) => f.from_me),
    orgChatKey,
    (f) => f.at,
  );
  let earliest: number | null = null;
  if (states.length) {
    await tx.$executeRaw`
      INSERT INTO analytics_flag_marks AS k (org_id, message_id, phone_id, chat_id, message_at, flagged, flagged_at, version)
      SELECT * FROM unnest(${states.map((s) => s.org_id)}::uuid[], ${states.map((s) => s.message_id)}::text[],
                           ${states.map((s) => s.phone_id)}::text[], ${states.map((s) => s.chat_id)}::text[],
                           ${states.map((s) => iso(s.at))}::timestamptz[], ${states.map((s) => s.flagged)}::boolean[],
                           ${states.map((s) => (s.flagged_at === null ? null : iso(s.flagged_at)))}::timestamptz[],
                           ${states.map((s) => iso(s.version))}::timestamptz[])
      ON CONFLICT (org_id, message_id) DO UPDATE
      SET flagged = EXCLUDED.flagged, flagged_at = EXCLUDED.flagged_at, version = EXCLUDED.version
      WHERE k.version < EXCLUDED.version`;
  }
  if (replies.length) {
    await tx.$executeRaw`
      INSERT INTO analytics_flag_chats AS c (org_id, chat_id, last_out_at, last_out_id, last_out_phone)
      SELECT * FROM unnest(${replies.map((r) => r.org_id)}::uuid[], ${replies.map((r) => r.chat_id)}::text[],
                           ${replies.map((r) => iso(r.at))}::timestamptz[], ${replies.map((r) => r.message_id)}::text[],
                           ${replies.map((r) => r.phone_id)}::text[])
      ON CONFLICT (org_id, chat_id) DO UPDATE
      SET last_out_at = EXCLUDED.last_out_at, last_out_id = EXCLUDED.last_out_id, last_out_phone = EXCLUDED.last_out_phone
      WHERE c.last_out_at < EXCLUDED.last_out_at`;
    await tx.$executeRaw`
      UPDATE analytics_flag_jobs j SET state = 'cancelled', outcome = 'answered', done_at = now()
      FROM analytics_flag_chats c
      WHERE (c.org_id, c.chat_id) IN (SELECT * FROM unnest(${replies.map((r) => r.org_id)}::uuid[], ${replies.map((r) => r.chat_id)}::text[]))
        AND j.org_id = c.org_id AND j.chat_id = c.chat_id AND j.action = 'flag' AND j.state = 'pending' AND j.message_at <= c.last_out_at`;
  }
  const touched = newest([...replies, ...states], orgChatKey, () => 0);
  if (touched.length) {
    const [row] = await tx.$queryRaw<{ n: number }[]>`
      WITH armed AS (
        INSERT INTO analytics_flag_jobs (org_id, action, phone_id, chat_id, message_id, message_at, due_at, response_id, response_at)
        SELECT m.org_id, 'unflag', c.last_out_phone, m.chat_id, m.message_id, m.message_at, now(), c.last_out_id, c.last_out_at
        FROM analytics_flag_marks m
        JOIN analytics_flag_chats c ON c.org_id = m.org_id AND c.chat_id = m.chat_id
        WHERE (m.org_id, m.chat_id) IN (SELECT * FROM unnest(${touched.map((r) => r.org_id)}::uuid[], ${touched.map((r) => r.chat_id)}::text[]))
          AND m.flagged AND m.message_at <= c.last_out_at
          AND date_trunc('second', COALESCE(m.flagged_at, m.version)) <= c.last_out_at
        ORDER BY m.org_id, m.message_id
        ON CONFLICT (org_id, message_id, response_id) WHERE action = 'unflag' DO NOTHING
        RETURNING 1)
      SELECT count(*)::int AS n FROM armed`;
    if (row.n > 0) earliest = o.now;
  }
  const planned = await planIncoming(
    tx,
    messages.filter((f) => !f.from_me),
    o,
  );
  if (planned.length) {
    await tx.$executeRaw`
      INSERT INTO analytics_flag_jobs (org_id, action, rule_id, phone_id, chat_id, message_id, message_at, due_at, reason, body)
      SELECT x.org_id, 'flag', x.rule_id, x.phone_id, x.chat_id, x.message_id, x.message_at, x.due_at, x.reason, x.body
      FROM unnest(${planned.map((w) => w.org_id)}::uuid[], ${planned.map((w) => w.rule_id)}::uuid[], ${planned.map((w) => w.phone_id)}::text[],
                  ${planned.map((w) => w.chat_id)}::text[], ${planned.map((w) => w.message_id)}::text[],
                  ${planned.map((w) => iso(w.message_at))}::timestamptz[], ${planned.map((w) => iso(w.due_at))}::timestamptz[],
                  ${planned.map((w) => w.reason)}::text[], ${planned.map((w) => w.body)}::text[])
        AS x(org_id, rule_id, phone_id, chat_id, message_id, message_at, due_at, reason, body)
      ORDER BY x.rule_id, x.message_id
      ON CONFLICT (rule_id, message_id) WHERE action = 'flag' DO NOTHING`;
    const first = Math.min(...planned.map((w) => w.due_at));
    earliest = earliest === null ? first : Math.min(earliest, first);
  }
  if (earliest !== null) await tx.$executeRaw`SELECT pg_notify(${FLAG_CHANNEL}, ${String(earliest)})`;
  return earliest;
}

async function planIncoming(tx: Prisma.TransactionClient, incoming: FlagMessageFact[], o: FlagApplyOptions): Promise<PlannedFlag[]> {
  const fresh = incoming.filter((f) => f.at >= o.now - o.lateCutoffMs);
  if (!fresh.length) return [];
  const orgIds = [...new Set(fresh.map((f) => f.org_id))].sort();
  const rules = await new FlagRuleRepository(tx).enabledOf(orgIds);
  if (!rules.length) return [];
  const chats = newest(fresh, orgChatKey, () => 0);
  const cols = { orgs: chats.map((c) => c.org_id), chats: chats.map((c) => c.chat_id) };
  const outs = await tx.$queryRaw<{ org_id: string; chat_id: string; at: Date }[]>`
    SELECT org_id::text, chat_id, last_out_at AS at FROM analytics_flag_chats
    WHERE (org_id, chat_id) IN (SELECT * FROM unnest(${cols.orgs}::uuid[], ${cols.chats}::text[]))`;
  const labels = await tx.$queryRaw<{ org_id: string; chat_id: string; label_ids: string[] }[]>`
    SELECT org_id::text, chat_id, label_ids FROM analytics_sla_chat_labels
    WHERE (org_id, chat_id) IN (SELECT * FROM unnest(${cols.orgs}::uuid[], ${cols.chats}::text[]))`;
  // waiting rules count business time when the organization has a schedule (as SLA deadlines do)
  const hours = rules.some((r) => r.kind === 'waiting') ? await new BusinessHoursRepository(tx).of(orgIds) : new Map();
  return planFlags({
    incoming: fresh,
    rules,
    schedules: new Map([...hours].map(([org, row]) => [org, scheduleOf(row)])),
    labels: new Map(labels.map((l) => [orgChatKey(l), l.label_ids ?? []])),
    lastOut: new Map(outs.map((r) => [orgChatKey(r), r.at.getTime()])),
    now: o.now,
    minuteMs: o.minuteMs,
    lateCutoffMs: o.lateCutoffMs,
    modelOn: o.modelOn,
  });
}
