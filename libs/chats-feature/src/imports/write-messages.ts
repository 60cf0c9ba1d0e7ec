import type { Prisma } from '@mapi/db';
import { IMPORT_COLUMNS } from './import-message-row';

type Tx = Prisma.TransactionClient;
const KEYS = new Set(['org_id', 'phone_id', 'message_id', 'updated_at']);

/**
 * How a stored copy takes an imported one: the source's value, except where the copy may know more
 * than the source's snapshot — acks only move up (delivery_info with the higher ack), media and the
 * queue id of our own send stay once stored, a reaction standing here keeps has_reaction.
 */
const MERGE: Record<string, string> = {
  ack: 'GREATEST(m.ack, EXCLUDED.ack)',
  delivery_info: 'CASE WHEN EXCLUDED.ack >= m.ack THEN EXCLUDED.delivery_info ELSE m.delivery_info END',
  media: 'COALESCE(m.media, EXCLUDED.media)',
  has_media: 'COALESCE(EXCLUDED.has_media, m.has_media)',
  sent_message_id: 'COALESCE(m.sent_message_id, EXCLUDED.sent_message_id)',
  has_reaction: 'CASE WHEN m.has_reaction THEN true ELSE EXCLUDED.has_reaction END',
};
const q = (c: string) => `"${c}"`;
const merged = IMPORT_COLUMNS.filter((c) => !KEYS.has(c));
const exprOf = (c: string) => MERGE[c] ?? `EXCLUDED.${q(c)}`;
const list = IMPORT_COLUMNS.map(q).join(', ');

// One statement per batch (its written rows come back as one JSON text: Prisma's raw result mapping
// costs per row and column): new copies inserted, stored ones updated only when the merge changes a
// column (updated_at alone is no change), so an identical batch writes nothing. A copy of another
// organization is never updated (phones are checked before; the WHERE holds it in any case).
const UPSERT = `WITH written AS (INSERT INTO messages AS m (${list})
  SELECT ${list} FROM json_populate_recordset(NULL::messages, $1::json)
  ON CONFLICT (phone_id, message_id) DO UPDATE SET
    ${merged.map((c) => `${q(c)} = ${exprOf(c)}`).join(',\n    ')},
    updated_at = GREATEST(m.updated_at, EXCLUDED.updated_at)
  WHERE m.org_id = EXCLUDED.org_id
    AND (${merged.map((c) => `m.${q(c)}`).join(', ')}) IS DISTINCT FROM (${merged.map(exprOf).join(', ')})
  RETURNING (m.xmax = 0) AS created, m.phone_id, m.message_id, m.chat_id, m.from_me, m."timestamp")
  SELECT COALESCE(json_agg(written), '[]')::text AS j FROM written`;

/** A written copy: what recordActivity and the answer read of it. */
export type WrittenMessage = { phone_id: string; message_id: string; chat_id: string; from_me: boolean; timestamp: Date };

export interface WrittenMessages {
  created: WrittenMessage[];
  updated: WrittenMessage[];
}

/** The row without its null columns: a missing key reads as NULL, and the text to parse is shorter (most columns of most messages are null). */
function withoutNulls(row: Prisma.MessageCreateManyInput): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) if (v !== null && v !== undefined) out[k] = v;
  return out;
}

/** Writes a batch of imported copies (one per (phone_id, message_id)); copies left as they were come back in neither list. */
export async function upsertImportedMessages(tx: Tx, rows: Prisma.MessageCreateManyInput[]): Promise<WrittenMessages> {
  if (!rows.length) return { created: [], updated: [] };
  const [{ j }] = await tx.$queryRawUnsafe<{ j: string }[]>(UPSERT, JSON.stringify(rows.map(withoutNulls)));
  const out = (JSON.parse(j) as (Omit<WrittenMessage, 'timestamp'> & { created: boolean; timestamp: string })[]).map((r) => ({
    ...r,
    timestamp: new Date(r.timestamp),
  }));
  return { created: out.filter((r) => r.created), updated: out.filter((r) => !r.created) };
}
