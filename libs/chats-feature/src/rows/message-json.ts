import type { MessageRow, PhoneMessageRow } from './message-row';

/** A messages row as `row_to_json(m)` gives it: timestamps as ISO text, the surrogate key and phone as-is. */
type MessageJson = Omit<MessageRow, 'timestamp' | 'updated_at'> & {
  id: number | string;
  phone_id: string;
  timestamp: string;
  updated_at: string;
};

/**
 * The one reviver of a messages row read as JSON (`row_to_json(m)`), in place: the two timestamps
 * as Dates, a float8 NaN or ±Infinity (which row_to_json writes as a string) as the number Prisma
 * gives, the surrogate key taken out and answered as text. In place, not `{ id, ...rest }` and a
 * spread: V8's object rest copies every column generically, and the copies would cost as much as the
 * rest of reviving, mapping and stringifying a page (bench/messages/revive-cost.js;
 * docs/benchmarks.md, "ReadyJson").
 */
export function reviveMessageJson(json: Partial<MessageJson>): { id: string; row: PhoneMessageRow } {
  const id = String(json.id);
  delete json.id;
  const row = json as unknown as PhoneMessageRow;
  row.timestamp = new Date(json.timestamp as unknown as string);
  row.updated_at = new Date(json.updated_at as unknown as string);
  if (typeof row.flag_response_time === 'string') row.flag_response_time = Number(row.flag_response_time);
  return { id, row };
}

/**
 * A messages row read as one JSON text (`row_to_json(m)::text`) back to the row Prisma would give,
 * without the phone column (it never leaves the service). Reading rows this way costs far less than
 * Prisma's row mapping on a large page (docs/benchmarks.md, "GET /chats and GET /chats/messages"),
 * which is why the hot reads use it.
 */
export function messageFromJson(text: string): { id: string; row: MessageRow } {
  const revived = reviveMessageJson(JSON.parse(text) as Partial<MessageJson>);
  delete (revived.row as Partial<PhoneMessageRow>).phone_id;
  return revived;
}
