import type { MessageRow } from './message-row';

/** A messages row as `row_to_json(m)` gives it: timestamps as ISO text, the surrogate key and phone as-is. */
type MessageJson = Omit<MessageRow, 'timestamp' | 'updated_at'> & {
  id: number | string;
  phone_id: string;
  timestamp: string;
  updated_at: string;
};

/**
 * A messages row read as one JSON text (`row_to_json(m)::text`) back to the row Prisma would give:
 * the two timestamps revived, the surrogate key and phone column dropped (they never leave the
 * service). Reading rows this way costs far less than Prisma's row mapping on a large page
 * (docs/benchmarks.md, "GET /chats and GET /chats/messages"), which is why the hot reads use it.
 */
export function messageFromJson(text: string): { id: string; row: MessageRow } {
  // In place, not `{ id, phone_id, ...rest }` and a spread: V8's object rest copies every column
  // generically, and the two copies would cost as much as the rest of reviving, mapping and stringifying
  // a page (bench/messages/revive-cost.js; docs/benchmarks.md, "ReadyJson").
  const json = JSON.parse(text) as Partial<MessageJson>;
  const id = String(json.id);
  delete json.id;
  delete json.phone_id;
  const row = json as unknown as MessageRow;
  row.timestamp = new Date(json.timestamp as unknown as string);
  row.updated_at = new Date(json.updated_at as unknown as string);
  // row_to_json writes a float8 NaN, Infinity or -Infinity as a string ("NaN"): the number Prisma gives
  if (typeof row.flag_response_time === 'string') row.flag_response_time = Number(row.flag_response_time);
  return { id, row };
}
