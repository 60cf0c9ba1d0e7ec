import { previousAttributes, type IngestEvent } from '@mapi/contracts';
import type { Prisma } from '@mapi/db';
import { mapReaction } from '../messages/map-reaction';
import { messageEvent, type OutEvent } from './out-event';

type Tx = Prisma.TransactionClient;
type ReactionIn = Extract<IngestEvent, { kind: 'reaction' }>;
type PollIn = Extract<IngestEvent, { kind: 'poll-results' }>;

const messageKey = (e: { phone_id: string; from_me: boolean; chat_id: string; unique_id: string }) => ({
  phone_id_message_id: { phone_id: e.phone_id, message_id: `${e.from_me}_${e.chat_id}_${e.unique_id}` },
});

/**
 * A sender's reaction to a stored message: the sender's first is reaction.created, a change or a
 * take-back ('') reaction.updated; an older or repeated report changes nothing. The message's
 * has_reaction follows whether any sender's reaction stands. A reaction to a message this phone has
 * not stored is dropped (history backfill brings the message, not its past reactions).
 */
export async function applyReaction(tx: Tx, e: ReactionIn, out: OutEvent[]): Promise<void> {
  const message = await tx.message.findUnique({ where: messageKey(e), select: { message_id: true, chat_id: true, has_reaction: true } });
  if (!message) return;
  const key = { phone_id: e.phone_id, message_id: message.message_id, sender_phone: e.reaction.sender_phone };
  const before = await tx.messageReaction.findUnique({ where: { phone_id_message_id_sender_phone: key } });
  const at = new Date(e.reaction.timestamp);
  if (before && (before.reacted_at > at || (before.reaction === e.reaction.reaction && before.reaction_id === e.reaction.reaction_id))) return;
  const values = { reaction_id: e.reaction.reaction_id, reaction: e.reaction.reaction, reacted_at: at, updated_at: new Date() };
  const row = await tx.messageReaction.upsert({
    where: { phone_id_message_id_sender_phone: key },
    create: { ...key, org_id: e.org_id, chat_id: message.chat_id, ...values },
    update: values,
  });
  const standing = (await tx.messageReaction.count({ where: { phone_id: e.phone_id, message_id: message.message_id, NOT: { reaction: '' } } })) > 0;
  if (standing !== Boolean(message.has_reaction)) {
    await tx.message.update({ where: messageKey(e), data: { has_reaction: standing, updated_at: new Date() } });
  }
  const data = mapReaction(row, e, e.org_phone);
  if (!before) out.push({ type: 'reaction.created', org_id: e.org_id, phone_id: e.phone_id, data });
  else out.push({ type: 'reaction.updated', org_id: e.org_id, phone_id: e.phone_id, data, previous: previousAttributes(mapReaction(before, e, e.org_phone), data) });
}

/** A poll's new tally: stored as the message's poll_results, emitted as message.updated when it changed. */
export async function applyPollResults(tx: Tx, e: PollIn, out: OutEvent[]): Promise<void> {
  const current = await tx.message.findUnique({ where: messageKey(e), select: { poll_results: true, updated_at: true } });
  if (!current || JSON.stringify(current.poll_results) === JSON.stringify(e.poll_results)) return;
  const row = await tx.message.update({ where: messageKey(e), data: { poll_results: e.poll_results, updated_at: new Date() }, omit: { id: true } });
  out.push(messageEvent('message.updated', row, current));
}
