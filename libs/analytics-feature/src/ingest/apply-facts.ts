import type { Prisma } from '@mapi/db';
import { foldChat, type ChatFold, type ChatMessage } from './chat-responses';
import { chatKey, dedupeFacts, factKey, slotOf, type MessageFact } from './message-facts';
import { writeMemberSlots } from './member-slots';
import { writeResponseBuckets, type SampleChange } from './response-buckets';
import { responseClock } from './response-clock';

export type Tx = Prisma.TransactionClient;

/** A chat whose first responses are computed again from a point: the first (at, message_id) that changed. */
export interface ChatFrom {
  org_id: string;
  phone_id: string;
  chat_id: string;
  at: number;
  message_id: string;
}

export interface ApplyOptions {
  /**
   * The rebuild's mode: no locks (it holds the organization's exclusive lock), no per-chat work
   * (responses and flagged counts are computed once, at its end).
   */
  rebuild?: boolean;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** Per organization: the intake's batches share it, the rebuild of a period holds it alone. */
export const orgLockSql = (shared: boolean) =>
  `SELECT count(${shared ? 'pg_advisory_xact_lock_shared' : 'pg_advisory_xact_lock'}(k))::int AS n
   FROM (SELECT DISTINCT hashtextextended('analytics-org|' || x, 0) AS k FROM unnest($1::text[]) x ORDER BY 1) s`;

/**
 * Counts a batch of facts, in the caller's transaction: each message copy once (the insert into
 * analytics_messages decides), in the slot of its own timestamp; a flag state newer than the stored one
 * moves the flagged counters; then the responses (first and next, wall-clock and business time) and the
 * state of each chat that gained a message are computed again from the chat's last outgoing message
 * before the earliest new one.
 * Redelivered, replayed and out-of-order events therefore give the figures in-order delivery gives.
 * Organizations are locked shared (a rebuild of one waits for the batches under way and holds new
 * ones), then the chats, in key order.
 */
export async function applyFacts(tx: Tx, input: readonly MessageFact[], options: ApplyOptions = {}): Promise<{ counted: number }> {
  const facts = dedupeFacts(input);
  if (!facts.length) return { counted: 0 };
  if (!options.rebuild) {
    await tx.$queryRawUnsafe(orgLockSql(true), [...new Set(facts.map((f) => f.org_id))]);
    await tx.$queryRawUnsafe(
      `SELECT count(pg_advisory_xact_lock(k))::int AS n
       FROM (SELECT DISTINCT hashtextextended('analytics-chat|' || x, 0) AS k FROM unnest($1::text[]) x ORDER BY 1) s`,
      [...new Set(facts.map((f) => `${f.org_id}|${f.phone_id}|${f.chat_id}`))],
    );
  }
  const inserted = await tx.$queryRawUnsafe<{ org_id: string; phone_id: string; message_id: string }[]>(
    `INSERT INTO analytics_messages (org_id, phone_id, message_id, chat_id, at, from_me, flagged, flag_version, performed_by)
     SELECT x.org_id, x.phone_id, x.message_id, x.chat_id, x.at, x.from_me, x.flagged, x.version, x.performed_by
     FROM jsonb_to_recordset($1::jsonb) AS x(org_id uuid, phone_id text, message_id text, chat_id text, at timestamptz, from_me boolean, flagged boolean, version timestamptz, performed_by text)
     ORDER BY x.org_id, x.phone_id, x.message_id
     ON CONFLICT (org_id, phone_id, message_id) DO NOTHING
     RETURNING org_id::text AS org_id, phone_id, message_id`,
    JSON.stringify(facts.map((f) => ({ ...f, at: iso(f.at), version: iso(f.version) }))),
  );
  const isNew = new Set(inserted.map(factKey));
  const fresh = facts.filter((f) => isNew.has(factKey(f)));
  const known = facts.filter((f) => !isNew.has(factKey(f)));
  // A newer flag state of a message already counted: its old value says which way the counters move.
  const flips = known.length
    ? await tx.$queryRawUnsafe<{ org_id: string; phone_id: string; chat_id: string; at: Date; flagged: boolean; was: boolean }[]>(
        `WITH x AS (
           SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(org_id uuid, phone_id text, message_id text, flagged boolean, version timestamptz)),
         old AS (
           SELECT m.org_id, m.phone_id, m.message_id, m.flagged AS was FROM analytics_messages m
           JOIN x ON x.org_id = m.org_id AND x.phone_id = m.phone_id AND x.message_id = m.message_id
           WHERE x.version > m.flag_version ORDER BY 1, 2, 3 FOR UPDATE OF m)
         UPDATE analytics_messages m SET flagged = x.flagged, flag_version = x.version
         FROM old JOIN x ON x.org_id = old.org_id AND x.phone_id = old.phone_id AND x.message_id = old.message_id
         WHERE m.org_id = old.org_id AND m.phone_id = old.phone_id AND m.message_id = old.message_id
         RETURNING m.org_id::text AS org_id, m.phone_id, m.chat_id, m.at, m.flagged, old.was`,
        JSON.stringify(known.map((f) => ({ ...f, version: iso(f.version) }))),
      )
    : [];

  // Counter deltas per (organization, slot, phone) and per (organization, slot, phone, chat), and flagged deltas per chat.
  type Counts = { incoming: number; outgoing: number; flagged: number };
  const slots = new Map<string, { org_id: string; slot: string; phone_id: string } & Counts>();
  const chatSlots = new Map<string, { org_id: string; slot: string; phone_id: string; chat_id: string } & Counts>();
  const slotRows = (org_id: string, at: number, phone_id: string, chat_id: string): Counts[] => {
    const slot = iso(slotOf(at));
    const k = `${org_id}\u0000${slot}\u0000${phone_id}`;
    let row = slots.get(k);
    if (!row) slots.set(k, (row = { org_id, slot, phone_id, incoming: 0, outgoing: 0, flagged: 0 }));
    const ck = `${k}\u0000${chat_id}`;
    let chatRow = chatSlots.get(ck);
    if (!chatRow) chatSlots.set(ck, (chatRow = { org_id, slot, phone_id, chat_id, incoming: 0, outgoing: 0, flagged: 0 }));
    return [row, chatRow];
  };
  const chatFlags = new Map<string, { org_id: string; phone_id: string; chat_id: string; delta: number }>();
  const flagDelta = (f: { org_id: string; phone_id: string; chat_id: string }, delta: number) => {
    const k = chatKey(f);
    const row = chatFlags.get(k) ?? { org_id: f.org_id, phone_id: f.phone_id, chat_id: f.chat_id, delta: 0 };
    row.delta += delta;
    chatFlags.set(k, row);
  };
  for (const f of fresh) {
    for (const row of slotRows(f.org_id, f.at, f.phone_id, f.chat_id)) {
      if (f.from_me) row.outgoing += 1;
      else row.incoming += 1;
      if (f.flagged) row.flagged += 1;
    }
    if (f.flagged) flagDelta(f, 1);
  }
  for (const f of flips) {
    if (f.flagged === f.was) continue;
    const d = f.flagged ? 1 : -1;
    for (const row of slotRows(f.org_id, f.at.getTime(), f.phone_id, f.chat_id)) row.flagged += d;
    flagDelta(f, d);
  }
  const byKey = <T>(rows: Iterable<T>, key: (r: T) => string) => [...rows].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  if (slots.size) {
    await tx.$executeRawUnsafe(
      `INSERT INTO analytics_message_slots AS s (org_id, slot, phone_id, incoming, outgoing, flagged)
       SELECT x.org_id, x.slot, x.phone_id, x.incoming, x.outgoing, x.flagged
       FROM jsonb_to_recordset($1::jsonb) AS x(org_id uuid, slot timestamptz, phone_id text, incoming int, outgoing int, flagged int)
       ORDER BY x.org_id, x.slot, x.phone_id
       ON CONFLICT (org_id, slot, phone_id) DO UPDATE SET
         incoming = s.incoming + EXCLUDED.incoming, outgoing = s.outgoing + EXCLUDED.outgoing, flagged = s.flagged + EXCLUDED.flagged`,
      JSON.stringify(byKey(slots.values(), (r) => `${r.org_id}\u0000${r.slot}\u0000${r.phone_id}`)),
    );
  }
  if (chatSlots.size) {
    await tx.$executeRawUnsafe(
      `INSERT INTO analytics_chat_slots AS s (org_id, slot, phone_id, chat_id, incoming, outgoing, flagged)
       SELECT x.org_id, x.slot, x.phone_id, x.chat_id, x.incoming, x.outgoing, x.flagged
       FROM jsonb_to_recordset($1::jsonb) AS x(org_id uuid, slot timestamptz, phone_id text, chat_id text, incoming int, outgoing int, flagged int)
       ORDER BY x.org_id, x.slot, x.phone_id, x.chat_id
       ON CONFLICT (org_id, slot, phone_id, chat_id) DO UPDATE SET
         incoming = s.incoming + EXCLUDED.incoming, outgoing = s.outgoing + EXCLUDED.outgoing, flagged = s.flagged + EXCLUDED.flagged`,
      JSON.stringify(byKey(chatSlots.values(), (r) => `${r.org_id}\u0000${r.slot}\u0000${r.phone_id}\u0000${r.chat_id}`)),
    );
  }
  await writeMemberSlots(tx, fresh);
  if (options.rebuild) return { counted: fresh.length };
  const flagRows = [...chatFlags.values()].filter((r) => r.delta !== 0);
  if (flagRows.length) {
    await tx.$executeRawUnsafe(
      `INSERT INTO analytics_chat_states (org_id, phone_id, chat_id)
       SELECT x.org_id, x.phone_id, x.chat_id FROM jsonb_to_recordset($1::jsonb) AS x(org_id uuid, phone_id text, chat_id text)
       ORDER BY 1, 2, 3 ON CONFLICT DO NOTHING`,
      JSON.stringify(byKey(flagRows, chatKey)),
    );
    await tx.$executeRawUnsafe(
      `UPDATE analytics_chat_states s SET flagged_count = GREATEST(s.flagged_count + x.delta, 0)
       FROM jsonb_to_recordset($1::jsonb) AS x(org_id uuid, phone_id text, chat_id text, delta int)
       WHERE s.org_id = x.org_id AND s.phone_id = x.phone_id AND s.chat_id = x.chat_id`,
      JSON.stringify(byKey(flagRows, chatKey)),
    );
  }
  await respond(tx, fresh);
  return { counted: fresh.length };
}

interface StateRow {
  org_id: string;
  phone_id: string;
  chat_id: string;
  waiting_since: Date | null;
  waiting_message_id: string | null;
  last_outgoing_at: Date | null;
  last_message_at: Date | null;
}

/**
 * The first responses and state of each chat that gained messages. A chat whose new messages all come
 * after its last one (live order, the usual case) is folded on from its stored state, reading nothing
 * else: a group with thousands of unanswered messages costs the same as a quiet chat. Any other chat
 * (a message arriving late, equal timestamps, no state yet) is computed again from its last outgoing
 * message before the earliest new one (recomputeChats).
 */
async function respond(tx: Tx, fresh: readonly MessageFact[]): Promise<void> {
  if (!fresh.length) return;
  const byChat = new Map<string, MessageFact[]>();
  for (const f of fresh) byChat.set(chatKey(f), [...(byChat.get(chatKey(f)) ?? []), f]);
  const states = await tx.$queryRawUnsafe<StateRow[]>(
    `SELECT s.org_id::text AS org_id, s.phone_id, s.chat_id, s.waiting_since, s.waiting_message_id, s.last_outgoing_at, s.last_message_at
     FROM analytics_chat_states s
     JOIN jsonb_to_recordset($1::jsonb) AS x(org_id uuid, phone_id text, chat_id text)
       ON s.org_id = x.org_id AND s.phone_id = x.phone_id AND s.chat_id = x.chat_id`,
    JSON.stringify([...byChat.values()].map(([f]) => ({ org_id: f.org_id, phone_id: f.phone_id, chat_id: f.chat_id }))),
  );
  const stateOf = new Map(states.map((st) => [chatKey(st), st]));
  const appended: FoldWrite[] = [];
  const again: ChatFrom[] = [];
  // Chats whose new messages share a timestamp: Postgres orders the ties (at, message_id in its collation, as recomputeChats does)
  const tied = [...byChat.values()].filter((facts) => new Set(facts.map((f) => f.at)).size < facts.length);
  const inDbOrder = tied.length ? await dbOrder(tx, tied.flat()) : new Map<string, number>();
  for (const [k, facts] of byChat) {
    const sorted = [...facts].sort((a, b) => a.at - b.at || (inDbOrder.get(factKey(a)) ?? 0) - (inDbOrder.get(factKey(b)) ?? 0));
    const st = stateOf.get(k);
    const last = st?.last_message_at?.getTime();
    if (st && last !== undefined && sorted[0].at > last) {
      const fold = foldChat(
        st.last_outgoing_at ? { at: st.last_outgoing_at.getTime() } : null,
        sorted.map((f) => ({ message_id: f.message_id, at: f.at, from_me: f.from_me, performed_by: f.performed_by ?? null })),
        st.waiting_since && st.waiting_message_id ? { message_id: st.waiting_message_id, at: st.waiting_since.getTime() } : null,
      );
      appended.push({ org_id: st.org_id, phone_id: st.phone_id, chat_id: st.chat_id, fold, replaceAfter: null });
      continue;
    }
    const first = sorted.reduce((a, b) => (b.at < a.at || (b.at === a.at && b.message_id < a.message_id) ? b : a));
    again.push(first);
  }
  await writeFolds(tx, appended);
  await recomputeChats(tx, again);
}

/**
 * The rank of each fact in Postgres's (at, message_id) order, for facts that share a timestamp: the
 * fold then runs them in the order a recomputation (recomputeChats) reads them, whatever the collation.
 */
async function dbOrder(tx: Tx, facts: readonly MessageFact[]): Promise<Map<string, number>> {
  const rows = await tx.$queryRawUnsafe<{ org_id: string; phone_id: string; message_id: string }[]>(
    `SELECT x.org_id, x.phone_id, x.message_id FROM jsonb_to_recordset($1::jsonb) AS x(org_id text, phone_id text, message_id text, at timestamptz)
     ORDER BY x.at, x.message_id`,
    JSON.stringify(facts.map((f) => ({ org_id: f.org_id, phone_id: f.phone_id, message_id: f.message_id, at: iso(f.at) }))),
  );
  return new Map(rows.map((r, i) => [factKey(r), i]));
}

interface ScanRow {
  org_id: string;
  phone_id: string;
  chat_id: string;
  p_at: Date | null;
  p_id: string | null;
  at: Date | null;
  message_id: string | null;
  from_me: boolean | null;
  performed_by: string | null;
}

/**
 * The first responses and state of each chat, computed again from its last outgoing message before
 * `at, message_id` to its end (what precedes that message cannot change): the chat's responses answering
 * incoming messages after it are replaced, its state row written.
 */
export async function recomputeChats(tx: Tx, chats: readonly ChatFrom[], options: ApplyOptions = {}): Promise<void> {
  if (!chats.length) return;
  const rows = await tx.$queryRawUnsafe<ScanRow[]>(
    `WITH a AS (
       SELECT * FROM jsonb_to_recordset($1::jsonb) AS a(org_id uuid, phone_id text, chat_id text, at timestamptz, message_id text)),
     p AS (
       SELECT a.org_id, a.phone_id, a.chat_id, p.at AS p_at, p.message_id AS p_id FROM a LEFT JOIN LATERAL (
         SELECT m.at, m.message_id FROM analytics_messages m
         WHERE m.org_id = a.org_id AND m.phone_id = a.phone_id AND m.chat_id = a.chat_id AND m.from_me
           AND (m.at, m.message_id) < (a.at, a.message_id)
         ORDER BY m.at DESC, m.message_id DESC LIMIT 1) p ON true)
     SELECT p.org_id::text AS org_id, p.phone_id, p.chat_id, p.p_at, p.p_id, m.at, m.message_id, m.from_me, m.performed_by
     FROM p LEFT JOIN LATERAL (
       SELECT m.at, m.message_id, m.from_me, m.performed_by FROM analytics_messages m
       WHERE m.org_id = p.org_id AND m.phone_id = p.phone_id AND m.chat_id = p.chat_id
         AND (p.p_at IS NULL OR (m.at, m.message_id) > (p.p_at, p.p_id))
       ORDER BY m.at, m.message_id) m ON true
     ORDER BY p.org_id, p.phone_id, p.chat_id, m.at, m.message_id`,
    JSON.stringify(chats.map((c) => ({ ...c, at: iso(c.at) }))),
  );
  const byChat = new Map<string, { head: ScanRow; messages: ChatMessage[] }>();
  for (const r of rows) {
    const k = chatKey(r);
    let chat = byChat.get(k);
    if (!chat) byChat.set(k, (chat = { head: r, messages: [] }));
    if (r.message_id && r.at) {
      chat.messages.push({ message_id: r.message_id, at: r.at.getTime(), from_me: r.from_me === true, performed_by: r.performed_by });
    }
  }
  const folds: FoldWrite[] = [];
  for (const { head, messages } of byChat.values()) {
    const { org_id, phone_id, chat_id } = head;
    const fold = foldChat(head.p_at ? { at: head.p_at.getTime() } : null, messages);
    folds.push({ org_id, phone_id, chat_id, fold, replaceAfter: { p_at: head.p_at?.toISOString() ?? null, p_id: head.p_id } });
  }
  await writeFolds(tx, folds, options);
}

/** A chat's folded responses and state, and (when computed again) the point after which its stored responses are replaced. */
interface FoldWrite {
  org_id: string;
  phone_id: string;
  chat_id: string;
  fold: ChatFold;
  /** null: the fold only appends (no stored response changes); else the last outgoing message before the run (null: none). */
  replaceAfter: { p_at: string | null; p_id: string | null } | null;
}

/**
 * Writes the folds' samples (replacing those after each recomputed chat's head) and states. Every sample written or
 * replaced moves the response-time histograms in the same transaction (+1 / −1; docs/decisions/0096), but in a
 * rebuild, which writes them again from the samples at its end.
 */
async function writeFolds(tx: Tx, folds: readonly FoldWrite[], options: ApplyOptions = {}): Promise<void> {
  if (!folds.length) return;
  const heads: object[] = [];
  const samples: (Omit<SampleChange, 'sign'> &
    Record<'chat_id' | 'incoming_message_id' | 'response_message_id' | 'response_at', string> & {
      responder: string | null;
    })[] = [];
  const states: object[] = [];
  // Each sample's business time in its organization's schedule as it is now (null without one): stored with it.
  const clock = await responseClock(
    tx,
    folds.filter((f) => f.fold.samples.length).map((f) => f.org_id),
  );
  for (const { org_id, phone_id, chat_id, fold, replaceAfter } of folds) {
    if (replaceAfter) heads.push({ org_id, phone_id, chat_id, ...replaceAfter });
    for (const s of fold.samples) {
      samples.push({
        org_id,
        phone_id,
        chat_id,
        incoming_message_id: s.incoming_message_id,
        incoming_at: iso(s.incoming_at),
        response_message_id: s.response_message_id,
        response_at: iso(s.response_at),
        response_ms: s.response_at - s.incoming_at,
        business_ms: clock(org_id, s.incoming_at, s.response_at),
        is_next: s.next,
        responder: s.responder,
      });
    }
    states.push({
      org_id,
      phone_id,
      chat_id,
      waiting_since: fold.waiting ? iso(fold.waiting.at) : null,
      waiting_message_id: fold.waiting?.message_id ?? null,
      last_outgoing_at: fold.last_outgoing_at === null ? null : iso(fold.last_outgoing_at),
      last_message_at: fold.last_message_at === null ? null : iso(fold.last_message_at),
    });
  }
  // the samples deleted or replaced, as they were: −1 in the histograms
  const gone = `r.org_id::text AS org_id, r.phone_id, r.incoming_at, r.is_next, r.response_ms::float8 AS response_ms,
    r.business_ms::float8 AS business_ms, -1 AS sign`;
  const changes: SampleChange[] = [];
  if (heads.length) {
    const deleted = await tx.$queryRawUnsafe<SampleChange[]>(
      `DELETE FROM analytics_responses r
       USING jsonb_to_recordset($1::jsonb) AS p(org_id uuid, phone_id text, chat_id text, p_at timestamptz, p_id text)
       WHERE r.org_id = p.org_id AND r.phone_id = p.phone_id AND r.chat_id = p.chat_id
         AND (p.p_at IS NULL OR (r.incoming_at, r.incoming_message_id) > (p.p_at, p.p_id))
       RETURNING ${gone}`,
      JSON.stringify(heads),
    );
    changes.push(...deleted);
  }
  if (samples.length) {
    const replaced = await tx.$queryRawUnsafe<SampleChange[]>(
      `WITH x AS (
         SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(org_id uuid, phone_id text, chat_id text, incoming_message_id text,
           incoming_at timestamptz, response_message_id text, response_at timestamptz, response_ms bigint, business_ms bigint,
           is_next boolean, responder text)),
       old AS (
         SELECT ${gone} FROM analytics_responses r
         JOIN x ON r.org_id = x.org_id AND r.phone_id = x.phone_id AND r.chat_id = x.chat_id AND r.incoming_message_id = x.incoming_message_id),
       up AS (
         INSERT INTO analytics_responses (org_id, phone_id, chat_id, incoming_message_id, incoming_at, response_message_id, response_at, response_ms,
         business_ms, is_next, responder)
       SELECT x.org_id, x.phone_id, x.chat_id, x.incoming_message_id, x.incoming_at, x.response_message_id, x.response_at, x.response_ms,
         x.business_ms, x.is_next, x.responder
       FROM x
       ON CONFLICT (org_id, phone_id, chat_id, incoming_message_id) DO UPDATE SET incoming_at = EXCLUDED.incoming_at,
         response_message_id = EXCLUDED.response_message_id, response_at = EXCLUDED.response_at, response_ms = EXCLUDED.response_ms,
         business_ms = EXCLUDED.business_ms, is_next = EXCLUDED.is_next, responder = EXCLUDED.responder)
       SELECT * FROM old`,
      JSON.stringify(samples),
    );
    changes.push(...replaced);
    for (const x of samples) changes.push({ ...x, sign: 1 });
  }
  if (!options.rebuild) await writeResponseBuckets(tx, changes);
  await tx.$executeRawUnsafe(
    `INSERT INTO analytics_chat_states AS s (org_id, phone_id, chat_id, waiting_since, waiting_message_id, last_outgoing_at, last_message_at)
     SELECT x.org_id, x.phone_id, x.chat_id, x.waiting_since, x.waiting_message_id, x.last_outgoing_at, x.last_message_at
     FROM jsonb_to_recordset($1::jsonb) AS x(org_id uuid, phone_id text, chat_id text, waiting_since timestamptz, waiting_message_id text,
       last_outgoing_at timestamptz, last_message_at timestamptz)
     ORDER BY 1, 2, 3
     ON CONFLICT (org_id, phone_id, chat_id) DO UPDATE SET waiting_since = EXCLUDED.waiting_since,
       waiting_message_id = EXCLUDED.waiting_message_id, last_outgoing_at = EXCLUDED.last_outgoing_at, last_message_at = EXCLUDED.last_message_at`,
    JSON.stringify(states),
  );
}
