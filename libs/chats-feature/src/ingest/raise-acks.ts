import type { Prisma } from '@mapi/db';
import { rowAsJson, parseJsonRows } from './insert-messages';
import type { PhoneMessageRow } from '../rows/message-row';
import { nextAck } from './ingest-rows';

type Tx = Prisma.TransactionClient;

/** An ack a connector reported again for a message that may already be stored. */
export interface AckSeen {
  phone_id: string;
  message_id: string;
  ack: number;
}

// The rules of nextAck() in SQL: acks only move up; -1 (failed) only replaces an ack below delivered
// (and not -1 itself). A 1:1 chat's delivery_info follows the ack; a group's keeps its receipt maps.
const RAISE_ACKS = `UPDATE messages m SET
    ack = u.ack,
    delivery_info = CASE WHEN m.chat_id LIKE '%@g.us' THEN m.delivery_info
      ELSE jsonb_build_object('delivered_count', (u.ack >= 2)::int, 'read_count', (u.ack >= 3)::int, 'pending', '[]'::jsonb) END,
    updated_at = now()
  FROM jsonb_to_recordset($1::jsonb) AS u(phone_id text, message_id text, ack int), messages old
  WHERE m.phone_id = u.phone_id AND m.message_id = u.message_id AND old.id = m.id
    AND CASE WHEN u.ack = -1 THEN m.ack < 2 AND m.ack <> -1 ELSE u.ack > m.ack END
  RETURNING ${rowAsJson('m')}, json_build_object('ack', old.ack, 'delivery_info', old.delivery_info, 'updated_at', old.updated_at)::text AS before`;

/** A raised row and its columns as they were before (for the event's previous_attributes). */
export interface RaisedAck {
  row: PhoneMessageRow;
  before: Pick<PhoneMessageRow, 'ack' | 'delivery_info' | 'updated_at'>;
}

/**
 * Raises the stored acks of re-read messages in one statement and returns the rows that changed
 * (a redelivered batch changes nothing). Several reports of one message fold in the order given.
 */
export async function raiseAcks(tx: Tx, seen: AckSeen[]): Promise<RaisedAck[]> {
  const folded = new Map<string, AckSeen>();
  for (const s of seen) {
    const key = `${s.phone_id}\u0000${s.message_id}`;
    const before = folded.get(key);
    folded.set(key, before ? { ...s, ack: nextAck(before.ack, s.ack) ?? before.ack } : s);
  }
  if (!folded.size) return [];
  const results = await tx.$queryRawUnsafe<{ j: string; before: string }[]>(RAISE_ACKS, JSON.stringify([...folded.values()]));
  const rows = parseJsonRows(results);
  return rows.map((row, i) => {
    const before = JSON.parse(results[i].before) as { ack: number; delivery_info: PhoneMessageRow['delivery_info']; updated_at: string };
    return { row, before: { ...before, updated_at: new Date(before.updated_at) } };
  });
}
