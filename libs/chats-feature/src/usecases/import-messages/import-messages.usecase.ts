import { ImportMessageItem, type ImportBatchResponse, type ImportItemResult, type ImportMessagesRequest, type PhoneDirectory } from '@mapi/contracts';
import type { ImportMessageRepository } from '../../imports/import-message-repository';
import { messageRowOf } from '../../imports/import-rows';

/**
 * chats.v1.import.messages (the importer): a source's messages onto this organization's phones,
 * their ids kept (a message is one per phone and id, whichever of the import and the connector
 * brings it first). History: no message.created, no unread counts; the chat's newest message moves.
 */
export class ImportMessages {
  constructor(
    private readonly messages: ImportMessageRepository,
    private readonly phones: PhoneDirectory,
  ) {}

  async execute({ ctx, body }: ImportMessagesRequest): Promise<ImportBatchResponse> {
    const own = new Map((await this.phones({ org_id: ctx.org_id, connected: false })).map((p) => [p.phone_id, p.org_phone]));
    const results: ImportItemResult[] = [];
    const rows: { index: number; key: string; row: Record<string, unknown> }[] = [];
    const seen = new Set<string>();
    for (const raw of body.items) {
      const item = ImportMessageItem.safeParse(raw);
      const sourceId = typeof (raw as { source_id?: unknown })?.source_id === 'string' ? (raw as { source_id: string }).source_id : '';
      if (!item.success) {
        results.push({ source_id: sourceId, target_id: null, outcome: 'failed', reason: `not a message item: ${item.error.issues[0]?.path.join('.')} ${item.error.issues[0]?.message}` });
        continue;
      }
      const orgPhone = own.get(item.data.phone_id);
      if (orgPhone === undefined) {
        results.push({ source_id: sourceId, target_id: null, outcome: 'failed', reason: `${item.data.phone_id} is not a phone of this organization` });
        continue;
      }
      const made = messageRowOf(ctx.org_id, { phone_id: item.data.phone_id, org_phone: orgPhone ?? String(item.data.message.org_phone ?? '') }, item.data.message);
      if ('reason' in made) {
        results.push({ source_id: sourceId, target_id: null, outcome: 'failed', reason: made.reason });
        continue;
      }
      const key = `${item.data.phone_id}\u0000${String(made.row.message_id)}`;
      results.push({ source_id: sourceId, target_id: String(made.row.message_id), outcome: 'skipped' });
      if (seen.has(key)) continue; // the same message twice in a batch: written once
      seen.add(key);
      rows.push({ index: results.length - 1, key, row: made.row });
    }
    const { inserted, updated } = await this.messages.upsert(rows.map((r) => r.row));
    for (const r of rows) {
      if (inserted.has(r.key)) results[r.index].outcome = 'created';
      else if (updated.has(r.key)) results[r.index].outcome = 'updated';
    }
    return { results };
  }
}
