import type { PrismaClient } from '@mapi/db';
import { MESSAGE_FIELDS } from './import-rows';

const COLUMNS = ['org_id', 'phone_id', 'org_phone', ...MESSAGE_FIELDS];
const col = (c: string) => `"${c}"`;
// Fields compared to tell an update from a copy already here (updated_at and ids say nothing of content).
const COMPARED = COLUMNS.filter((c) => !['org_id', 'phone_id', 'message_id', 'unique_id', 'chat_id'].includes(c));

const UPSERT = `INSERT INTO messages (${COLUMNS.map(col).join(', ')}, updated_at)
  SELECT ${COLUMNS.map(col).join(', ')}, now() FROM jsonb_populate_recordset(NULL::messages, $1::jsonb)
  ON CONFLICT (phone_id, message_id) DO UPDATE SET ${COMPARED.map((c) => `${col(c)} = EXCLUDED.${col(c)}`).join(', ')}, updated_at = now()
  WHERE messages.org_id = EXCLUDED.org_id
    AND (${COMPARED.map((c) => `messages.${col(c)}`).join(', ')}) IS DISTINCT FROM (${COMPARED.map((c) => `EXCLUDED.${col(c)}`).join(', ')})
  RETURNING phone_id, message_id, (xmax = 0) AS inserted`;

// The chats the messages are in, on their phones, before their messages (as ingestion makes them).
const ENSURE_CHATS = `INSERT INTO chats (org_id, phone_id, chat_id, chat_type, org_phone, created_at, updated_at, activity_at)
  SELECT DISTINCT ON (x.phone_id, x.chat_id) x.org_id, x.phone_id, x.chat_id,
         CASE WHEN x.chat_id LIKE '%@g.us' THEN 'group' ELSE 'user' END, x.org_phone, x.ts, x.ts, x.ts
  FROM jsonb_to_recordset($1::jsonb) AS x(org_id uuid, phone_id text, chat_id text, org_phone text, ts timestamptz)
  ORDER BY x.phone_id, x.chat_id, x.ts
  ON CONFLICT (phone_id, chat_id) DO NOTHING`;

// Each touched chat's newest message and activity time (that message's time, as ingestion keeps it),
// from what is stored: history may arrive in any order.
const LATEST = `UPDATE chats c SET latest_message_id = m.id, latest_message_at = m."timestamp", activity_at = m."timestamp"
  FROM jsonb_to_recordset($1::jsonb) AS x(phone_id text, chat_id text),
  LATERAL (SELECT id, "timestamp" FROM messages WHERE phone_id = x.phone_id AND chat_id = x.chat_id ORDER BY "timestamp" DESC, id DESC LIMIT 1) m
  WHERE c.phone_id = x.phone_id AND c.chat_id = x.chat_id AND c.latest_message_id IS DISTINCT FROM m.id`;

/** Imported messages: stored by (phone, message id), compared with the copy already here. */
export class ImportMessageRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /** Writes the rows in one transaction; answers which were new and which changed (the rest were here as they are). */
  async upsert(rows: Record<string, unknown>[]): Promise<{ inserted: Set<string>; updated: Set<string> }> {
    const inserted = new Set<string>();
    const updated = new Set<string>();
    if (!rows.length) return { inserted, updated };
    const chats = rows.map((r) => ({ org_id: r.org_id, phone_id: r.phone_id, chat_id: r.chat_id, org_phone: r.org_phone, ts: r.timestamp }));
    const touched = [...new Map(rows.map((r) => [`${r.phone_id}\u0000${r.chat_id}`, { phone_id: r.phone_id, chat_id: r.chat_id }])).values()];
    await this.prisma.$transaction(async (tx) => {
      await tx.$executeRawUnsafe(ENSURE_CHATS, JSON.stringify(chats));
      const written = await tx.$queryRawUnsafe<{ phone_id: string; message_id: string; inserted: boolean }[]>(UPSERT, JSON.stringify(rows));
      for (const w of written) (w.inserted ? inserted : updated).add(`${w.phone_id}\u0000${w.message_id}`);
      await tx.$executeRawUnsafe(LATEST, JSON.stringify(touched));
    }, { timeout: 60_000 });
    return { inserted, updated };
  }
}
