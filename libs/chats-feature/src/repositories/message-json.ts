import type { MessageRow } from './message-repository';

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
 * service). Reading rows this way costs about a third of Prisma's row mapping for a 2000-row page
 * (docs/benchmarks.md, "GET /chats"), which is why the hot reads use it.
 */
export function messageFromJson(text: string): { id: string; row: MessageRow } {
  // In place, not `{ id, phone_id, ...rest }` and a spread: V8's object rest copies every column
  // generically, and the two copies were half of reviving, mapping and stringifying a 2000-message
  // page (60–99 against 30–41 ms in one process: bench/messages/revive-cost.js, docs/benchmarks.md).
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
