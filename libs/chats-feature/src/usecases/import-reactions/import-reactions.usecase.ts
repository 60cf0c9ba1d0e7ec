import { ImportReactionItem, type ImportBatchResponse, type ImportItemResult, type PhoneDirectory, type RpcRequest, type ImportReactionsRpc } from '@mapi/contracts';
import type { PrismaClient } from '@mapi/db';

// A reaction per (phone, message, sender); the message is marked as reacted to.
const UPSERT = `INSERT INTO message_reactions (phone_id, message_id, sender_phone, org_id, chat_id, reaction_id, reaction, reacted_at)
  SELECT x.phone_id, x.message_id, x.sender_phone, x.org_id, x.chat_id, x.reaction_id, x.reaction, x.reacted_at
  FROM jsonb_to_recordset($1::jsonb) AS x(phone_id text, message_id text, sender_phone text, org_id uuid, chat_id text, reaction_id text, reaction text, reacted_at timestamptz)
  ON CONFLICT (phone_id, message_id, sender_phone) DO UPDATE SET reaction = EXCLUDED.reaction, reaction_id = EXCLUDED.reaction_id, reacted_at = EXCLUDED.reacted_at, updated_at = now()
  WHERE message_reactions.org_id = EXCLUDED.org_id AND (message_reactions.reaction, message_reactions.reacted_at) IS DISTINCT FROM (EXCLUDED.reaction, EXCLUDED.reacted_at)
  RETURNING phone_id, message_id, sender_phone, (xmax = 0) AS inserted`;
const MARK = `UPDATE messages m SET has_reaction = true
  FROM jsonb_to_recordset($1::jsonb) AS x(phone_id text, message_id text)
  WHERE m.phone_id = x.phone_id AND m.message_id = x.message_id AND m.has_reaction IS DISTINCT FROM true`;

/** chats.v1.import.reactions (the importer): reactions onto this organization's phones' messages. */
export class ImportReactions {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly phones: PhoneDirectory,
  ) {}

  async execute({ ctx, body }: RpcRequest<typeof ImportReactionsRpc>): Promise<ImportBatchResponse> {
    const own = new Set((await this.phones({ org_id: ctx.org_id, connected: false })).map((p) => p.phone_id));
    const results: ImportItemResult[] = [];
    const rows: Record<string, unknown>[] = [];
    const index = new Map<string, number>();
    for (const raw of body.items) {
      const sourceId = String((raw as { source_id?: unknown })?.source_id ?? '');
      const item = ImportReactionItem.safeParse(raw);
      if (!item.success) {
        results.push({ source_id: sourceId, target_id: null, outcome: 'failed', reason: `not a reaction: ${item.error.issues[0]?.path.join('.')} ${item.error.issues[0]?.message}` });
        continue;
      }
      const r = item.data;
      if (!own.has(r.phone_id)) {
        results.push({ source_id: sourceId, target_id: null, outcome: 'failed', reason: `${r.phone_id} is not a phone of this organization` });
        continue;
      }
      const at = r.timestamp && Number.isFinite(Date.parse(r.timestamp)) ? new Date(r.timestamp).toISOString() : new Date(0).toISOString();
      const key = `${r.phone_id}\u0000${r.message_id}\u0000${r.sender_phone}`;
      results.push({ source_id: sourceId, target_id: sourceId, outcome: 'skipped' });
      if (index.has(key)) continue;
      index.set(key, results.length - 1);
      rows.push({ phone_id: r.phone_id, message_id: r.message_id, sender_phone: r.sender_phone, org_id: ctx.org_id, chat_id: r.chat_id, reaction_id: r.reaction_id, reaction: r.reaction ?? '', reacted_at: at });
    }
    if (rows.length) {
      await this.prisma.$transaction(async (tx) => {
        const written = await tx.$queryRawUnsafe<{ phone_id: string; message_id: string; sender_phone: string; inserted: boolean }[]>(UPSERT, JSON.stringify(rows));
        for (const w of written) {
          const i = index.get(`${w.phone_id}\u0000${w.message_id}\u0000${w.sender_phone}`);
          if (i !== undefined) results[i].outcome = w.inserted ? 'created' : 'updated';
        }
        await tx.$executeRawUnsafe(MARK, JSON.stringify(rows.map((r) => ({ phone_id: r.phone_id, message_id: r.message_id }))));
      });
    }
    return { results };
  }
}
