import { SLOT_MS } from '@mapi/contracts';
import type { PrismaClient } from '@mapi/db';
import { applyFacts, orgLockSql, recomputeChats, type ChatFrom, type Tx } from '../ingest/apply-facts';
import { chatKey, type MessageFact } from '../ingest/message-facts';
import { regroupResponseBuckets } from '../ingest/response-buckets';

export interface RebuildResult {
  from: string;
  to: string;
  /** Message copies counted again from the stored messages. */
  messages: number;
  /** Chats whose responses and state were computed again. */
  chats: number;
  /** Ticket states written again from the stored tickets (all of the organization's: they are not per period). */
  tickets: number;
}

const BATCH = 2_000;

/**
 * Recomputes an organization's figures of a period from the stored messages (the chats service's
 * `messages` table, which analytics may read: `// readers: analytics` of prisma/schema/chats.prisma),
 * in one transaction holding the organization's lock (its live batches wait meanwhile): the period's
 * counted messages, slot counters and active chats are deleted, the stored messages of the period are
 * counted again through the live path (applyFacts), then the responses and state of every chat
 * touched are computed again from its last outgoing message before the period, and its flagged count
 * recounted; the organization's response-time histograms are then written again from its samples (all of them: a
 * recomputed chat's samples reach past the period). `from` and `to` are widened to whole quarter hours. Messages the stream never announced
 * (history synced or imported without events) are counted by a rebuild, not by the live path.
 * The organization's ticket states are written again too, all of them (rebuildTickets).
 */
export async function rebuildPeriod(prisma: PrismaClient, orgId: string, fromIso: string, toIso: string): Promise<RebuildResult> {
  const from = new Date(Math.floor(Date.parse(fromIso) / SLOT_MS) * SLOT_MS);
  const to = new Date(Math.ceil(Date.parse(toIso) / SLOT_MS) * SLOT_MS);
  if (!(from < to)) throw new Error('rebuild: from must be before to');
  return prisma.$transaction(
    async (tx) => {
      await tx.$queryRawUnsafe(orgLockSql(false), [orgId]);
      const touched = new Map<string, ChatFrom>();
      const touch = (c: { org_id: string; phone_id: string; chat_id: string }) =>
        touched.set(chatKey(c), { org_id: c.org_id, phone_id: c.phone_id, chat_id: c.chat_id, at: from.getTime(), message_id: '' });
      const before = await tx.$queryRaw<{ org_id: string; phone_id: string; chat_id: string }[]>`
        SELECT DISTINCT org_id::text AS org_id, phone_id, chat_id FROM analytics_messages
        WHERE org_id = ${orgId}::uuid AND at >= ${from} AND at < ${to}`;
      before.forEach(touch);
      await tx.$executeRaw`DELETE FROM analytics_messages WHERE org_id = ${orgId}::uuid AND at >= ${from} AND at < ${to}`;
      await tx.$executeRaw`DELETE FROM analytics_message_slots WHERE org_id = ${orgId}::uuid AND slot >= ${from} AND slot < ${to}`;
      await tx.$executeRaw`DELETE FROM analytics_chat_slots WHERE org_id = ${orgId}::uuid AND slot >= ${from} AND slot < ${to}`;
      await tx.$executeRaw`DELETE FROM analytics_member_slots WHERE org_id = ${orgId}::uuid AND slot >= ${from} AND slot < ${to}`;
      const version = Date.now();
      let messages = 0;
      for (let after = BigInt(0); ;) {
        const rows = await storedMessages(tx, orgId, from, to, after);
        if (!rows.length) break;
        after = rows[rows.length - 1].id;
        const facts: MessageFact[] = rows.map((r) => ({
          org_id: orgId,
          phone_id: r.phone_id,
          chat_id: r.chat_id,
          message_id: r.message_id,
          at: r.timestamp.getTime(),
          from_me: r.from_me,
          flagged: r.flag_status === true,
          version,
          performed_by: r.performed_by || null,
        }));
        facts.forEach(touch);
        messages += (await applyFacts(tx, facts, { rebuild: true })).counted;
        if (rows.length < BATCH) break;
      }
      const chats = [...touched.values()];
      for (let i = 0; i < chats.length; i += 500) {
        const part = chats.slice(i, i + 500);
        await recomputeChats(tx, part, { rebuild: true });
        await tx.$executeRawUnsafe(
          `UPDATE analytics_chat_states s SET flagged_count = (
             SELECT count(*)::int FROM analytics_messages m
             WHERE m.org_id = s.org_id AND m.phone_id = s.phone_id AND m.chat_id = s.chat_id AND m.flagged)
           FROM jsonb_to_recordset($1::jsonb) AS x(org_id uuid, phone_id text, chat_id text)
           WHERE s.org_id = x.org_id AND s.phone_id = x.phone_id AND s.chat_id = x.chat_id`,
          JSON.stringify(part.map(({ org_id, phone_id, chat_id }) => ({ org_id, phone_id, chat_id }))),
        );
      }
      // the response-time histograms, all of the organization's, from its samples (docs/decisions/0096)
      await regroupResponseBuckets(tx, orgId);
      const tickets = await rebuildTickets(tx, orgId);
      return { from: from.toISOString(), to: to.toISOString(), messages, chats: chats.length, tickets };
    },
    { timeout: 30 * 60_000, maxWait: 60_000 },
  );
}

/** A batch of the organization's stored messages of the period, in id order after `after` (status updates left out). */
function storedMessages(tx: Tx, orgId: string, from: Date, to: Date, after: bigint) {
  return tx.$queryRaw<
    {
      id: bigint;
      phone_id: string;
      chat_id: string;
      message_id: string;
      timestamp: Date;
      from_me: boolean;
      flag_status: boolean | null;
      performed_by: string | null;
    }[]
  >`
    SELECT id, phone_id, chat_id, message_id, "timestamp", from_me, flag_status, performed_by FROM messages
    WHERE org_id = ${orgId}::uuid AND "timestamp" >= ${from} AND "timestamp" < ${to} AND id > ${after}
      AND chat_id <> 'status@broadcast' AND is_status IS NOT TRUE
    ORDER BY id LIMIT ${BATCH}`;
}

/**
 * The organization's ticket states written again from the inbox service's stored tickets
 * (`inbox_tickets`, which analytics may read: `// readers: analytics` of prisma/schema/inbox.prisma),
 * each as of its last_updated_at: what the newest ticket event carried. Ticket states are not per
 * period (a ticket's figures depend on its current state), so every ticket is; the caller holds the
 * organization's lock exclusively.
 */
export async function rebuildTickets(tx: Tx, orgId: string): Promise<number> {
  await tx.$executeRaw`DELETE FROM analytics_tickets WHERE org_id = ${orgId}::uuid`;
  return tx.$executeRaw`
    INSERT INTO analytics_tickets (org_id, ticket_id, phone_id, chat_id, status, assignee, is_deleted, created_at,
      first_assigned_at, closed_at, closed_by, version, event_at)
    SELECT org_id, ticket_id::text, phone_id, chat_id, status, NULLIF(assignee, ''), is_deleted, created_at,
      first_assigned_at, closed_at, closed_by, last_updated_at, last_updated_at
    FROM inbox_tickets WHERE org_id = ${orgId}::uuid`;
}
