import type { Message } from '@mapi/contracts';
import { Prisma } from '@mapi/db';

/**
 * The message object of spec 2.1 as Postgres builds it, for the hot page reads (GET
 * /chats/{chat_id}/messages): one JSON text per row in exactly the keys and order of mapMessage,
 * so the service parses it and never revives or maps the row (docs/benchmarks.md, "GET messages: gateway vs raw driver").
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
  // JSON.stringify writes NaN, Infinity and -Infinity as null; row_to_json would write "NaN", "Infinity", "-Infinity"
  flag_response_time: `CASE WHEN m.flag_response_time IN ('NaN', 'Infinity', '-Infinity') THEN NULL ELSE m.flag_response_time END`,
  // asStringArray: an array keeps its strings only (in order), anything else is null. A jsonpath, not a
  // subquery over jsonb_array_elements: a sublink is planned with every query, limit=1 pages included.
  vcards: `CASE jsonb_typeof(m.vcards) WHEN 'array' THEN jsonb_path_query_array(m.vcards, 'strict $[*] ? (@.type() == "string")') END`,
};

/** Every key of the message object, in mapMessage's order (the spec test holds the two equal). */
export const MESSAGE_API_KEYS = [
  'message_id',
  'unique_id',
  'id',
  'chat_id',
  'org_id',
  'org_phone',
  'sender_phone',
  'from_me',
  'body',
  'prev_body',
  'message_type',
  'timestamp',
  'updated_at',
  'ack',
  'delivery_info',
  'mentioned_ids',
  'media',
  'fts',
  'broadcast',
  'sent_message_id',
  'author',
  'broadcast_id',
  'device_type',
  'duration',
  'flag_metadata',
  'flag_response_time',
  'flag_status',
  'forwarding_score',
  'from',
  'has_media',
  'has_quoted_msg',
  'has_reaction',
  'interactive',
  'invite_v4',
  'is_deleted',
  'is_ephemeral',
  'is_forwarded',
  'is_gif',
  'is_starred',
  'is_status',
  'links',
  'location',
  'media_key',
  'message_ticket_id',
  'order_id',
  'performed_by',
  'poll_info',
  'poll_results',
  'quoted_message_id',
  'raw_data',
  'to',
  'token',
  'vcards',
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

/** The message object's keys that are jsonb columns as they are (vcards is filtered first: DERIVED). */
const JSONB_KEYS = [
  'delivery_info',
  'media',
  'flag_metadata',
  'interactive',
  'invite_v4',
  'links',
  'location',
  'poll_info',
  'poll_results',
  'raw_data',
] as const satisfies readonly (typeof MESSAGE_API_KEYS)[number][];

/**
 * What in a jsonb value's text (jsonb_out: `"key": value, ...`) may read differently once JSON.parse
 * and JSON.stringify have been through it, so the row is left to them (conservative: a string that
 * merely looks like one of these costs that row a parse, nothing else):
 * - `": null` — a field holding null: json_strip_nulls (which writes the value without jsonb_out's
 *   spaces) would drop it, so the value keeps its spaces;
 * - `"123": ` — an integer-like key: JavaScript puts those first, jsonb orders keys by length;
 * - 16 digits or dots in a row — a number past 2^53 (rounded by JSON.parse) or with more significant
 *   digits than a double holds;
 * - a fraction ending in 0 (`1.50`, numeric keeps the scale) or starting with five zeros (JavaScript
 *   writes 1e-7).
 * Below 16 characters, a number without these is written the same by numeric_out and by JavaScript.
 */
const UNSAFE_JSONB_TEXT = String.raw`": null|"(0|[1-9][0-9]*)": |[0-9.]{16}|\.[0-9]*0([^0-9]|$)|\.00000`;

/**
 * The message object as the JSON text JSON.stringify writes for it — the bytes of GET messages'
 * answer — for the rows whose `ok` is true; the others (`ok` false: a jsonb value or a float the
 * checks above cannot vouch for) are the same JSON value, to be parsed and stringified by the caller.
 * jsonb values are written without jsonb_out's spaces by json_strip_nulls (nothing to strip: a value
 * holding a null field keeps its spaces and its row is not ok), the id object by row_to_json (not
 * json_build_object's `"key" : value`). float8 (flag_response_time) is written as JavaScript does from
 * 1e-4 to 1e15 (shortest digits, not exponential), zero, and NaN and ±Infinity (null: DERIVED); -0 and
 * exponents leave the row to the caller.
 * The texts of the jsonb values are taken once per row (`OFFSET 0` keeps the subquery from being
 * folded into the expressions that read it three times each).
 */
export const messageReadyLateral = Prisma.raw(
  `LATERAL (SELECT ${[...JSONB_KEYS.map((key) => `m."${key}"::text AS "${key}"`), `(${DERIVED.vcards})::text AS vcards`].join(', ')} OFFSET 0) t
   CROSS JOIN LATERAL (SELECT m.from_me, m.unique_id AS id, m.chat_id AS remote, m.message_id AS serialized) idv
   CROSS JOIN LATERAL (SELECT ${MESSAGE_API_KEYS.map((key) => `${readyExpression(key)} AS "${key}"`).join(', ')}) api`,
);

function readyExpression(key: (typeof MESSAGE_API_KEYS)[number]): string {
  if (key === 'id') return 'row_to_json(idv)';
  if (key === 'vcards') return 'json_strip_nulls(t.vcards::json)'; // strings only (nothing to strip), written without jsonb_out's spaces
  if ((JSONB_KEYS as readonly string[]).includes(key)) {
    return `CASE WHEN strpos(t."${key}", '": null') = 0 THEN json_strip_nulls(t."${key}"::json) ELSE t."${key}"::json END`;
  }
  return DERIVED[key] ?? `m."${key}"`;
}

/** `j` (the text) and `ok` (it is JSON.stringify's) of the row aliased `m`, with messageReadyLateral joined. */
export const messageReadySelect = Prisma.raw(
  `row_to_json(api)::text AS j,
   (concat_ws(' ', ${JSONB_KEYS.map((key) => `t."${key}"`).join(', ')}) !~ '${UNSAFE_JSONB_TEXT}'
    AND (m.flag_response_time IS NULL OR m.flag_response_time::text = '0' OR m.flag_response_time IN ('NaN', 'Infinity', '-Infinity')
         OR (abs(m.flag_response_time) >= 1e-4 AND abs(m.flag_response_time) < 1e15))) AS ok`,
);
