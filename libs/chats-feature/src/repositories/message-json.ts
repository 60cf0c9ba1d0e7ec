import type { MessageRow } from './message-repository';

/** A messages row as `row_to_json(m)` gives it: timestamps as ISO text, the surrogate key and phone as-is. */
type MessageJson = Omit<MessageRow, 'timestamp' | 'updated_at'> & { id: number | string; phone_id: string; timestamp: string; updated_at: string };

/**
 * A messages row read as one JSON text (`row_to_json(m)::text`) back to the row Prisma would give:
 * the two timestamps revived, the surrogate key and phone column dropped (they never leave the
 * service). Reading rows this way costs about a third of Prisma's row mapping for a 2000-row page
 * (docs/benchmarks.md, "GET /chats"), which is why the hot reads use it.
 */
export function messageFromJson(text: string): { id: string; row: MessageRow } {
  const { id, phone_id: _phone, timestamp, updated_at, ...rest } = JSON.parse(text) as MessageJson;
  return { id: String(id), row: { ...rest, timestamp: new Date(timestamp), updated_at: new Date(updated_at) } };
}
