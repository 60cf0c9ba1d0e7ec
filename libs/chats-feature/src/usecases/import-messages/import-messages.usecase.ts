import {
  ImportMessageItemSchema,
  type ImportBatchResponse,
  type ImportMessageItem,
  type ImportMessagesRequest,
  type IngestMessage,
  type PhoneDirectory,
} from '@mapi/contracts';
import type { Prisma, PrismaClient } from '@mapi/db';
import { chatOfMessage, ensureChats, type ChatSeen } from '../../ingest/ensure-chats';
import { learnContacts } from '../../ingest/learn-contacts';
import type { OutEvent } from '../../ingest/out-event';
import { recordActivity } from '../../ingest/record-activity';
import { importMessageRow } from '../../imports/import-message-row';
import { answer, notOurPhone, phonesOfOrg, validateItems, writeInHalves } from '../../imports/import-items';
import { upsertImportedMessages } from '../../imports/write-messages';

const keyOf = (phoneId: string, messageId: string) => `${phoneId}\u0000${messageId}`;

/**
 * chats.v1.import.messages (internal, the importer): a batch of a source organization's messages,
 * each written as the target phone's copy with its message id kept. A copy stored before — by an
 * earlier run or by the connector's ingestion of the same network message — is the same row:
 * answered skipped when the import brings nothing new, updated when it does (write-messages.ts says
 * how the two merge); ingestion later finds the imported row and stores nothing twice.
 *
 * A history backfill: no message.created nor chat.created (the target's webhooks and workflows do
 * not fire on old history) and no unread counts; the chats' latest message follows as for history.
 * A batch is one transaction of a few statements whatever its size (chats, contacts, messages,
 * activity), plus one directory lookup of its phones.
 */
export class ImportMessages {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly directory: PhoneDirectory,
  ) {}

  execute({ ctx, body }: ImportMessagesRequest): Promise<ImportBatchResponse> {
    return writeInHalves(body.items, (items) => this.write(ctx, items));
  }

  private async write(ctx: ImportMessagesRequest['ctx'], items: readonly unknown[]): Promise<ImportBatchResponse> {
    const orgId = ctx.org_id;
    const { valid, results } = validateItems(items, ImportMessageItemSchema);
    const phones = await phonesOfOrg(
      this.directory,
      orgId,
      valid.map((v) => v.item.phone_id),
    );
    const rows = new Map<string, { index: number; source_id: string; row: Prisma.MessageCreateManyInput }>();
    const repeats: { index: number; source_id: string; key: string }[] = [];
    const chats = new Map<string, ChatSeen>();
    const seen = new Map<string, { org_id: string; phone_id: string; org_phone: string; messages: IngestMessage[] }>();
    for (const { index, item } of valid) {
      if (!phones.has(item.phone_id)) {
        results[index] = { source_id: item.source_id, target_id: null, outcome: 'failed', reason: notOurPhone(item.phone_id) };
        continue;
      }
      const phone = { org_id: orgId, phone_id: item.phone_id, org_phone: phones.get(item.phone_id) ?? item.message.org_phone ?? '' };
      const row = importMessageRow(phone, item.message);
      const key = keyOf(item.phone_id, row.message_id);
      if (rows.has(key)) {
        repeats.push({ index, source_id: item.source_id, key }); // one statement cannot write a row twice; a repeat answers as its first
        continue;
      }
      rows.set(key, { index, source_id: item.source_id, row });
      const chatKey = keyOf(item.phone_id, row.chat_id);
      if (!chats.has(chatKey)) chats.set(chatKey, chatOfMessage(phone, row.chat_id));
      let s = seen.get(item.phone_id);
      if (!s) seen.set(item.phone_id, (s = { ...phone, messages: [] }));
      s.messages.push(contactSeen(item));
    }
    const written = rows.size
      ? await this.prisma.$transaction(
          async (tx) => {
            await ensureChats(tx, [...chats.values()], [] as OutEvent[]); // chat.created is not written: a backfill
            await learnContacts(tx, [...seen.values()]);
            const w = await upsertImportedMessages(
              tx,
              [...rows.values()].map((r) => r.row),
            );
            await recordActivity(tx, w.created, () => false);
            return w;
          },
          { timeout: 30_000 },
        )
      : { created: [], updated: [] };
    const outcome = new Map<string, 'created' | 'updated'>();
    for (const r of written.created) outcome.set(keyOf(r.phone_id, r.message_id), 'created');
    for (const r of written.updated) outcome.set(keyOf(r.phone_id, r.message_id), 'updated');
    for (const [key, { index, source_id, row }] of rows) {
      results[index] = { source_id, target_id: row.message_id, outcome: outcome.get(key) ?? 'skipped' };
    }
    for (const { index, source_id, key } of repeats) {
      results[index] = { source_id, target_id: rows.get(key)?.row.message_id ?? null, outcome: 'skipped' };
    }
    return answer(results, items);
  }
}

/** What learnContacts reads of a message (senders and 1-1 partners; the source gives no push name here). */
function contactSeen({ message: m }: ImportMessageItem): IngestMessage {
  return {
    chat_id: m.chat_id,
    unique_id: m.unique_id,
    from_me: m.from_me,
    sender_phone: m.sender_phone,
    body: null,
    message_type: m.message_type,
    timestamp: m.timestamp,
    ack: 0,
  };
}
