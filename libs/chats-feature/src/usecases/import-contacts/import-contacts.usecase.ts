import { ImportContactItemSchema, type ImportBatchResponse, type ImportContactItem, type ImportContactsRequest } from '@mapi/contracts';
import type { PrismaClient } from '@mapi/db';
import { answer, sameValue as same, validateItems, writeInHalves } from '../../imports/import-items';
import { storedContacts, writeContacts, type ImportedContact } from '../../imports/write-contacts';

/** Label names as contacts keep them: trimmed, lower case, each once (the contact's `labels`, else its `label_ids` keys). */
function labelsOf(item: ImportContactItem): string[] | null {
  const names = item.labels ?? (item.label_ids ? Object.keys(item.label_ids).filter((k) => item.label_ids?.[k]) : null);
  return names ? [...new Set(names.map((l) => l.trim().toLowerCase()).filter(Boolean))] : null;
}

/**
 * The contact an item makes of the stored one (or of none): the name set through the API is the
 * source's `periskope_name` (its `name` when it has none); a push name, is_internal or labels the
 * source does not give leave the stored ones as they are.
 */
function imported(item: ImportContactItem, stored: ImportedContact | undefined): ImportedContact {
  const apiName = item.periskope_name !== undefined ? item.periskope_name : (item.name ?? null);
  return {
    contact_id: item.contact_id,
    contact_name: apiName?.trim() || stored?.contact_name || null,
    pushname: item.pushname?.trim() || stored?.pushname || null,
    is_internal: item.is_internal ?? stored?.is_internal ?? false,
    labels: labelsOf(item) ?? stored?.labels ?? [],
    is_imported: Boolean(item.is_imported) || (stored?.is_imported ?? false),
  };
}

/**
 * chats.v1.import.contacts (internal, the importer): a batch of a source organization's contacts.
 * Contact ids are natural (`<digits>@c.us`, one per organization), so each is kept as it is: a
 * contact of another organization is a different row, never read nor touched. One transaction: the
 * stored ones read and locked, the new and changed ones written in one statement. No events.
 */
export class ImportContacts {
  constructor(private readonly prisma: PrismaClient) {}

  execute({ ctx, body }: ImportContactsRequest): Promise<ImportBatchResponse> {
    return writeInHalves(body.items, (items) => this.write(ctx, items));
  }

  private async write(ctx: ImportContactsRequest['ctx'], items: readonly unknown[]): Promise<ImportBatchResponse> {
    const { valid, results } = validateItems(items, ImportContactItemSchema);
    const ids = [...new Set(valid.map((v) => v.item.contact_id))].sort();
    await this.prisma.$transaction(async (tx) => {
      const stored = await storedContacts(tx, ctx.org_id, ids);
      const writes = new Map<string, ImportedContact>();
      for (const { index, item } of valid) {
        const before = writes.get(item.contact_id) ?? stored.get(item.contact_id);
        const after = imported(item, before);
        const outcome =
          !stored.has(item.contact_id) && !writes.has(item.contact_id) ? 'created' : before && same(before, after) ? 'skipped' : 'updated';
        if (outcome !== 'skipped') writes.set(item.contact_id, after);
        results[index] = { source_id: item.source_id, target_id: item.contact_id, outcome };
      }
      await writeContacts(
        tx,
        ctx.org_id,
        [...writes.values()].sort((a, b) => (a.contact_id < b.contact_id ? -1 : 1)),
      );
    });
    return answer(results, items);
  }
}
