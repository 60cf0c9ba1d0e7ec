import type { IngestEvent } from '@mapi/contracts';
import type { Prisma } from '@mapi/db';
import { messageEvent, type OutEvent } from './out-event';

type Tx = Prisma.TransactionClient;
type PollIn = Extract<IngestEvent, { kind: 'poll-results' }>;

const messageKey = (e: { phone_id: string; from_me: boolean; chat_id: string; unique_id: string }) => ({
  phone_id_message_id: { phone_id: e.phone_id, message_id: `${e.from_me}_${e.chat_id}_${e.unique_id}` },
});

/** A poll's new tally: stored as the message's poll_results, emitted as message.updated when it changed. */
export async function applyPollResults(tx: Tx, e: PollIn, out: OutEvent[]): Promise<void> {
  const current = await tx.message.findUnique({ where: messageKey(e), select: { poll_results: true, updated_at: true } });
  if (!current || JSON.stringify(current.poll_results) === JSON.stringify(e.poll_results)) return;
  const row = await tx.message.update({
    where: messageKey(e),
    data: { poll_results: e.poll_results, updated_at: new Date() },
    omit: { id: true },
  });
  out.push(messageEvent('message.updated', row, current));
}
