import type { IngestEvent } from '@mapi/contracts';
import type { Prisma } from '@mapi/db';
import { storedPins, withPinChange } from '../chats/pinned-messages';
import { messageEvent, type OutEvent } from './out-event';

type Tx = Prisma.TransactionClient;
type PinEvent = Extract<IngestEvent, { kind: 'pin' }>;

/** How long a pin lasts when the network does not say: 7 days, its default. */
const DEFAULT_PIN_MS = 7 * 24 * 3600 * 1000;

/**
 * A pin or unpin the network echoed: the phone's copy of the chat records it in pinned_messages
 * (chat row locked: replicas apply batches in parallel), and the message gets `message.updated`
 * (previous_attributes: updated_at; the message object has no pin field, the chat shows the pin).
 * Idempotent: a redelivered event, or one older than the message's last pin change, changes nothing
 * and emits nothing. A pin of a message or chat this phone does not hold is dropped.
 */
export async function applyPin(tx: Tx, e: PinEvent, out: OutEvent[]): Promise<void> {
  const message_id = `${e.from_me}_${e.chat_id}_${e.unique_id}`;
  const where = { phone_id_message_id: { phone_id: e.phone_id, message_id } };
  const message = await tx.message.findUnique({ where, select: { updated_at: true } });
  if (!message) return;
  const chats = await tx.$queryRaw<{ pinned_messages: unknown }[]>`
    SELECT pinned_messages FROM chats WHERE phone_id = ${e.phone_id} AND chat_id = ${e.chat_id} FOR UPDATE`;
  if (!chats.length) return;
  const at = Date.parse(e.at);
  const expires_at = e.pin ? (e.expires_at ? Date.parse(e.expires_at) : at + DEFAULT_PIN_MS) : null;
  const next = withPinChange(storedPins(chats[0].pinned_messages), { message_id, at, pinned: e.pin, expires_at });
  if (!next) return;
  const now = new Date();
  await tx.chat.update({
    where: { phone_id_chat_id: { phone_id: e.phone_id, chat_id: e.chat_id } },
    data: { pinned_messages: next as unknown as Prisma.InputJsonValue, updated_at: now },
  });
  const row = await tx.message.update({ where, data: { updated_at: now }, omit: { id: true } });
  out.push(messageEvent('message.updated', row, { updated_at: message.updated_at }));
}
