import { previousAttributes, type IngestEvent } from '@mapi/contracts';
import type { Prisma } from '@mapi/db';
import { mapReaction } from '../messages/map-reaction';
import { parseJsonRows, rowAsJson } from './insert-messages';
import type { PhoneMessageRow } from '../rows/message-row';
import { messageEvent, type OutEvent } from './out-event';

type Tx = Prisma.TransactionClient;
type ReactionRow = Prisma.MessageReactionModel;
export type ChangeIn = Extract<IngestEvent, { kind: 'edit' | 'delete' | 'reaction' }>;

export const isChange = (e: IngestEvent): e is ChangeIn => e.kind === 'edit' || e.kind === 'delete' || e.kind === 'reaction';

const messageIdOf = (e: ChangeIn) => `${e.from_me}_${e.chat_id}_${e.unique_id}`;
const keyOf = (phoneId: string, messageId: string) => `${phoneId}\u0000${messageId}`;
/** The senders' reactions to one message (an empty map added the first time). */
function sendersOf(reactions: Map<string, Map<string, ReactionRow>>, key: string): Map<string, ReactionRow> {
  let senders = reactions.get(key);
  if (!senders) reactions.set(key, (senders = new Map()));
  return senders;
}

// The changed messages, locked in one order (id) so that two batches touching the same messages queue
// rather than deadlock; a reaction's count of standing reactions reads under this lock.
const LOCK_MESSAGES = `SELECT ${rowAsJson('m')} FROM messages m
  JOIN (SELECT DISTINCT phone_id, message_id FROM jsonb_to_recordset($1::jsonb) AS k(phone_id text, message_id text)) k
    ON m.phone_id = k.phone_id AND m.message_id = k.message_id
  ORDER BY m.id FOR UPDATE OF m`;
const REACTIONS_OF = `SELECT row_to_json(r.*)::text AS j FROM message_reactions r
  JOIN (SELECT DISTINCT phone_id, message_id FROM jsonb_to_recordset($1::jsonb) AS k(phone_id text, message_id text)) k
    ON r.phone_id = k.phone_id AND r.message_id = k.message_id`;
const UPDATE_MESSAGES = `UPDATE messages m SET body = u.body, prev_body = u.prev_body, is_deleted = u.is_deleted, has_reaction = u.has_reaction, updated_at = u.updated_at
  FROM jsonb_to_recordset($1::jsonb) AS u(phone_id text, message_id text, body text, prev_body text, is_deleted boolean, has_reaction boolean, updated_at timestamptz)
  WHERE m.phone_id = u.phone_id AND m.message_id = u.message_id`;
const UPSERT_REACTIONS = `INSERT INTO message_reactions (phone_id, message_id, sender_phone, org_id, chat_id, reaction_id, reaction, reacted_at, updated_at)
  SELECT phone_id, message_id, sender_phone, org_id, chat_id, reaction_id, reaction, reacted_at, updated_at
  FROM jsonb_to_recordset($1::jsonb) AS u(phone_id text, message_id text, sender_phone text, org_id uuid, chat_id text, reaction_id text, reaction text, reacted_at timestamptz, updated_at timestamptz)
  ON CONFLICT (phone_id, message_id, sender_phone) DO UPDATE SET
    reaction_id = EXCLUDED.reaction_id, reaction = EXCLUDED.reaction, reacted_at = EXCLUDED.reacted_at, updated_at = EXCLUDED.updated_at`;

// The two writes as one statement (different tables: data-modifying CTEs both run, on one snapshot).
const UPDATE_AND_UPSERT = `WITH updated AS (${UPDATE_MESSAGES} RETURNING 1) ${UPSERT_REACTIONS.replaceAll('$1', '$2')}`;

/**
 * A run of consecutive edits, deletions for everyone and reactions, applied with a fixed number of
 * statements whatever its length (the changed messages read and locked, their reactions read, then one
 * update of the messages and one upsert of the reactions), where one by one they would take two to six
 * round trips each. The changes fold in memory in the order they came, with the rules they had one by
 * one, so each yields the same event (and previous_attributes) as before, in the same order:
 * - an edit to the text the message already has, or a deletion of a deleted message, changes nothing
 *   (a redelivered one emits nothing); an edit is message.updated (body, prev_body, updated_at before),
 *   a deletion message.deleted;
 * - a sender's reaction replaces their earlier one: the first is reaction.created, a change or a
 *   take-back ('') reaction.updated; an older (reacted_at) or identical report changes nothing. The
 *   message's has_reaction follows whether any sender's reaction stands;
 * - a change to a message this phone has not stored is dropped.
 */
export async function applyChanges(tx: Tx, changes: ChangeIn[], out: OutEvent[]): Promise<void> {
  if (!changes.length) return;
  const keys = changes.map((e) => ({ phone_id: e.phone_id, message_id: messageIdOf(e) }));
  const messages = new Map(
    parseJsonRows(await tx.$queryRawUnsafe<{ j: string }[]>(LOCK_MESSAGES, JSON.stringify(keys))).map((m) => [
      keyOf(m.phone_id, m.message_id),
      m,
    ]),
  );
  const reacted = keys.filter((_, i) => changes[i].kind === 'reaction' && messages.has(keyOf(keys[i].phone_id, keys[i].message_id)));
  const reactions = new Map<string, Map<string, ReactionRow>>(); // message key → sender → reaction
  if (reacted.length) {
    for (const { j } of await tx.$queryRawUnsafe<{ j: string }[]>(REACTIONS_OF, JSON.stringify(reacted))) {
      const r = JSON.parse(j) as ReactionRow & { reacted_at: string; updated_at: string };
      const row = { ...r, reacted_at: new Date(r.reacted_at), updated_at: new Date(r.updated_at) };
      const key = keyOf(r.phone_id, r.message_id);
      sendersOf(reactions, key).set(r.sender_phone, row);
    }
  }
  const changedMessages = new Set<string>();
  const changedReactions = new Map<string, ReactionRow>();
  const now = new Date();
  for (const e of changes) {
    const key = keyOf(e.phone_id, messageIdOf(e));
    const current = messages.get(key);
    if (!current) continue;
    let next: PhoneMessageRow | undefined;
    if (e.kind === 'edit') {
      if (current.body === e.body) continue;
      next = { ...current, body: e.body, prev_body: current.body, updated_at: now };
      out.push(messageEvent('message.updated', next, { body: current.body, prev_body: current.prev_body, updated_at: current.updated_at }));
    } else if (e.kind === 'delete') {
      if (current.is_deleted) continue;
      next = { ...current, is_deleted: true, updated_at: now };
      out.push(messageEvent('message.deleted', next));
    } else {
      const senders = sendersOf(reactions, key);
      const before = senders.get(e.reaction.sender_phone);
      const at = new Date(e.reaction.timestamp);
      if (before && (before.reacted_at > at || (before.reaction === e.reaction.reaction && before.reaction_id === e.reaction.reaction_id)))
        continue;
      const row: ReactionRow = {
        phone_id: e.phone_id,
        message_id: current.message_id,
        sender_phone: e.reaction.sender_phone,
        org_id: before?.org_id ?? e.org_id,
        chat_id: before?.chat_id ?? current.chat_id,
        reaction_id: e.reaction.reaction_id,
        reaction: e.reaction.reaction,
        reacted_at: at,
        updated_at: now,
      };
      senders.set(row.sender_phone, row);
      changedReactions.set(`${key}\u0000${row.sender_phone}`, row);
      const data = mapReaction(row, e, e.org_phone);
      if (!before) out.push({ type: 'reaction.created', org_id: e.org_id, phone_id: e.phone_id, data });
      else
        out.push({
          type: 'reaction.updated',
          org_id: e.org_id,
          phone_id: e.phone_id,
          data,
          previous: previousAttributes(mapReaction(before, e, e.org_phone), data),
        });
      const standing = [...senders.values()].some((r) => r.reaction !== '');
      if (standing !== Boolean(current.has_reaction)) next = { ...current, has_reaction: standing, updated_at: now };
    }
    if (next) {
      messages.set(key, next);
      changedMessages.add(key);
    }
  }
  const updates = JSON.stringify(
    [...changedMessages]
      .flatMap((k) => messages.get(k) ?? [])
      .map((m) => ({
        phone_id: m.phone_id,
        message_id: m.message_id,
        body: m.body,
        prev_body: m.prev_body,
        is_deleted: m.is_deleted,
        has_reaction: m.has_reaction,
        updated_at: m.updated_at,
      })),
  );
  const upserts = JSON.stringify([...changedReactions.values()]);
  // Both in one statement when both are needed (a run of reactions and edits: one round trip less inside
  // the transaction that holds the messages' locks and, once its events are written, the outbox lock).
  if (changedMessages.size && changedReactions.size) await tx.$executeRawUnsafe(UPDATE_AND_UPSERT, updates, upserts);
  else if (changedMessages.size) await tx.$executeRawUnsafe(UPDATE_MESSAGES, updates);
  else if (changedReactions.size) await tx.$executeRawUnsafe(UPSERT_REACTIONS, upserts);
}
