import type { PrismaClient } from '@mapi/db';

export interface ImportedChat {
  org_id: string;
  phone_id: string;
  chat_id: string;
  chat_name: string | null;
  chat_type: string;
  org_phone: string | null;
  created_at: string;
}

export interface ImportedChatValues {
  chat_id: string;
  labels: { label_id: string; name: string }[];
  custom_properties: Record<string, unknown>;
  assigned_to: string | null;
}

// A copy per phone; a copy already here keeps its listing state and takes the source's name.
const UPSERT_CHATS = `INSERT INTO chats (org_id, phone_id, chat_id, chat_name, chat_type, org_phone, created_at, updated_at, activity_at)
  SELECT x.org_id, x.phone_id, x.chat_id, x.chat_name, x.chat_type, x.org_phone, x.created_at, x.created_at, x.created_at
  FROM jsonb_to_recordset($1::jsonb) AS x(org_id uuid, phone_id text, chat_id text, chat_name text, chat_type text, org_phone text, created_at timestamptz)
  ON CONFLICT (phone_id, chat_id) DO UPDATE SET chat_name = EXCLUDED.chat_name, updated_at = now()
  WHERE chats.org_id = EXCLUDED.org_id AND chats.chat_name IS DISTINCT FROM EXCLUDED.chat_name
  RETURNING phone_id, chat_id, (xmax = 0) AS inserted`;

/** Imported chats: each phone's copy, and the organization's values on the chat (labels, properties, assignee). */
export class ImportChatRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /** Answers, per chat id, whether anything was created and whether anything changed. */
  async write(orgId: string, copies: ImportedChat[], values: ImportedChatValues[]): Promise<Map<string, 'created' | 'updated'>> {
    const touched = new Map<string, 'created' | 'updated'>();
    const mark = (chatId: string, what: 'created' | 'updated') => {
      if (touched.get(chatId) !== 'created') touched.set(chatId, what);
    };
    await this.prisma.$transaction(async (tx) => {
      if (copies.length) {
        const rows = await tx.$queryRawUnsafe<{ chat_id: string; inserted: boolean }[]>(UPSERT_CHATS, JSON.stringify(copies));
        for (const r of rows) mark(r.chat_id, r.inserted ? 'created' : 'updated');
      }
      for (const v of values) {
        const before = await tx.chatProperties.findUnique({ where: { org_id_chat_id: { org_id: orgId, chat_id: v.chat_id } } });
        const props = JSON.stringify(v.custom_properties);
        if (!before) {
          if (v.assigned_to !== null || Object.keys(v.custom_properties).length) {
            await tx.chatProperties.create({ data: { org_id: orgId, chat_id: v.chat_id, assigned_to: v.assigned_to, custom_properties: v.custom_properties as object } });
            mark(v.chat_id, 'updated');
          }
        } else if (before.assigned_to !== v.assigned_to || JSON.stringify(before.custom_properties) !== props) {
          await tx.chatProperties.update({ where: { org_id_chat_id: { org_id: orgId, chat_id: v.chat_id } }, data: { assigned_to: v.assigned_to, custom_properties: v.custom_properties as object, updated_at: new Date() } });
          mark(v.chat_id, 'updated');
        }
        const labels = await tx.chatLabel.findMany({ where: { org_id: orgId, chat_id: v.chat_id }, select: { label_id: true } });
        const have = new Set(labels.map((l) => l.label_id));
        const want = new Set(v.labels.map((l) => l.label_id));
        const gone = [...have].filter((l) => !want.has(l));
        const fresh = v.labels.filter((l) => !have.has(l.label_id));
        if (gone.length) await tx.chatLabel.deleteMany({ where: { org_id: orgId, chat_id: v.chat_id, label_id: { in: gone } } });
        if (fresh.length) await tx.chatLabel.createMany({ data: fresh.map((l) => ({ org_id: orgId, chat_id: v.chat_id, label_id: l.label_id, label_name: l.name.toLowerCase() })), skipDuplicates: true });
        if (gone.length || fresh.length) mark(v.chat_id, 'updated');
      }
    }, { timeout: 60_000 });
    return touched;
  }
}
