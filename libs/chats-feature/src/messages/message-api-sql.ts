import type { Message } from '@mapi/contracts';
import { Prisma } from '@mapi/db';

/**
 * The message object of spec 2.1 as Postgres builds it, for the hot page reads (GET
 * /chats/{chat_id}/messages): one JSON text per row in exactly the keys and order of mapMessage,
 * so the service parses it and never revives or maps the row (docs/benchmarks.md, "Round 3").
 *
 * mapMessage stays the one definition of the shape for every other path; this is its SQL twin,
 * held to it by two tests: message-api-sql.spec.ts (the same keys in the same order as mapMessage
 * gives) and message-api-sql.int-spec.ts (byte-for-byte the same page as mapMessage over a chat of
 * every kind of message). Every key is a column of the same name except the ones below.
 */
const DERIVED: Partial<Record<keyof Message, string>> = {
  // { from_me, id, remote, serialized }, as mapMessage builds it
  id: `json_build_object('from_me', m.from_me, 'id', m.unique_id, 'remote', m.chat_id, 'serialized', m.message_id)`,
  // isoSeconds / isoMillis: UTC, the offset written out, seconds or milliseconds truncated as toISOString().slice does
  timestamp: `to_char(m."timestamp" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"+00:00"')`,
  updated_at: `to_char(m.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"+00:00"')`,
  ack: `m.ack::text`,
  // asStringArray: an array keeps its strings only (in order), anything else is null. A jsonpath, not a
  // subquery over jsonb_array_elements: a sublink is planned with every query, limit=1 pages included.
  vcards: `CASE jsonb_typeof(m.vcards) WHEN 'array' THEN jsonb_path_query_array(m.vcards, 'strict $[*] ? (@.type() == "string")') END`,
};

/** Every key of the message object, in mapMessage's order (the spec test holds the two equal). */
export const MESSAGE_API_KEYS = [
  'message_id', 'unique_id', 'id', 'chat_id', 'org_id', 'org_phone', 'sender_phone', 'from_me', 'body', 'prev_body',
  'message_type', 'timestamp', 'updated_at', 'ack', 'delivery_info', 'mentioned_ids', 'media', 'fts', 'broadcast',
  'sent_message_id', 'author', 'broadcast_id', 'device_type', 'duration', 'flag_metadata', 'flag_response_time',
  'flag_status', 'forwarding_score', 'from', 'has_media', 'has_quoted_msg', 'has_reaction', 'interactive', 'invite_v4',
  'is_deleted', 'is_ephemeral', 'is_forwarded', 'is_gif', 'is_starred', 'is_status', 'links', 'location', 'media_key',
  'message_ticket_id', 'order_id', 'performed_by', 'poll_info', 'poll_results', 'quoted_message_id', 'raw_data', 'to',
  'token', 'vcards',
] as const satisfies readonly (keyof Message)[];

// A key the contract gains and this list misses fails to compile here.
type Missing = Exclude<keyof Message, (typeof MESSAGE_API_KEYS)[number]>;
const everyKeyListed: [Missing] extends [never] ? true : Missing = true;
void everyKeyListed;

/**
 * `row_to_json(<the message object>)::text` of the messages row aliased `m`, for a select list
 * (`... AS j`). The object's columns come from a LATERAL subquery without FROM (`CROSS JOIN
 * messageApiLateral` names it `api`), which the planner folds into the row: row_to_json keeps the
 * column names and order, which json_build_object cannot for 53 keys (at most 100 arguments).
 */
export const messageApiLateral = Prisma.raw(
  `LATERAL (SELECT ${MESSAGE_API_KEYS.map((key) => `${DERIVED[key] ?? `m."${key}"`} AS "${key}"`).join(', ')}) api`,
);
export const messageApiJson = Prisma.raw('row_to_json(api)::text');
