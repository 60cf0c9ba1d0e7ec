import type { Prisma } from '@mapi/db';
import { reviveMessageJson } from '../rows/message-json';
import type { PhoneMessageRow } from '../rows/message-row';

type Tx = Prisma.TransactionClient;

// Every column ingestRow fills; updated_at is set here (the column's default would need it absent).
const COLUMNS = [
  'org_id',
  'phone_id',
  'chat_id',
  'message_id',
  'unique_id',
  'org_phone',
  'sender_phone',
  'from_me',
  'body',
  'message_type',
  'timestamp',
  'updated_at',
  'ack',
  'delivery_info',
  'mentioned_ids',
  'media',
  'fts',
  'author',
  'has_media',
  'is_forwarded',
  'quoted_message_id',
  'has_quoted_msg',
  'sent_message_id',
  'performed_by',
  'from',
  'to',
] as const;
/**
 * A returned row as one JSON text: Prisma's raw-query result mapping costs per column and row (with
 * ~55 columns, a large share of the chats service's ingestion CPU); JSON.parse does it natively.
 */
export const rowAsJson = (alias: string) => `row_to_json(${alias}.*)::text AS j`;

/** Rows returned as rowAsJson(…), revived as the hot reads revive theirs (reviveMessageJson), phone kept. */
export function parseJsonRows(rows: { j: string }[]): PhoneMessageRow[] {
  return rows.map(({ j }) => reviveMessageJson(JSON.parse(j)).row);
}

const list = COLUMNS.map((c) => `"${c}"`).join(', ');
const SQL = `INSERT INTO messages (${list})
  SELECT ${list} FROM jsonb_populate_recordset(NULL::messages, $1::jsonb)
  ON CONFLICT (phone_id, message_id) DO NOTHING
  RETURNING ${rowAsJson('messages')}`;

/**
 * Inserts new messages in one statement and returns the rows that were new (a redelivered message
 * is skipped). Raw SQL: Prisma's createManyAndReturn costs several times as much per row, and this
 * insert is ingestion's hot path (docs/benchmarks.md, "Phones ingestion").
 */
export async function insertNewMessages(tx: Tx, rows: Prisma.MessageCreateManyInput[]): Promise<PhoneMessageRow[]> {
  if (!rows.length) return [];
  const now = new Date();
  const json = JSON.stringify(rows.map((r) => ({ ...r, updated_at: now })));
  return parseJsonRows(await tx.$queryRawUnsafe<{ j: string }[]>(SQL, json));
}
