import type { ImportBatchResponse, ImportContactsRequest, ImportItemResult, PhoneDirectory } from '@mapi/contracts';
import type { PrismaClient } from '@mapi/db';

const CONTACT_ID = /^[0-9]{6,20}@c\.us$/;
const str = (v: unknown, max = 300): string | null => (typeof v === 'string' && v.length <= max ? v : null);

/**
 * chats.v1.import.contacts (the importer): the organization's contacts with their names, labels and
 * internal flag, on every phone of the organization (the source does not say which phones saw them).
 */
export class ImportContacts {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly phones: PhoneDirectory,
  ) {}

  async execute({ ctx, body }: ImportContactsRequest): Promise<ImportBatchResponse> {
    const phoneIds = (await this.phones({ org_id: ctx.org_id, connected: false })).map((p) => p.phone_id).sort();
    const results: ImportItemResult[] = [];
    for (const raw of body.items) {
      const item = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
      const id = str(item.source_id) ?? '';
      if (!CONTACT_ID.test(id)) {
        results.push({ source_id: id, target_id: null, outcome: 'failed', reason: 'contact_id must be <digits>@c.us' });
        continue;
      }
      const data = {
        contact_name: str(item.contact_name),
        pushname: str(item.pushname),
        is_internal: item.is_internal === true,
        labels: (Array.isArray(item.labels) ? item.labels : []).filter((l): l is string => typeof l === 'string').map((l) => l.toLowerCase()).sort(),
      };
      const key = { org_id_contact_id: { org_id: ctx.org_id, contact_id: id } };
      const before = await this.prisma.contact.findUnique({ where: key });
      if (!before) {
        await this.prisma.contact.create({ data: { ...data, org_id: ctx.org_id, contact_id: id, phone_ids: phoneIds, is_imported: true } });
        results.push({ source_id: id, target_id: id, outcome: 'created' });
        continue;
      }
      const same = before.contact_name === data.contact_name && before.pushname === data.pushname && before.is_internal === data.is_internal && JSON.stringify([...before.labels].sort()) === JSON.stringify(data.labels);
      if (!same) await this.prisma.contact.update({ where: key, data: { ...data, phone_ids: [...new Set([...before.phone_ids, ...phoneIds])], updated_at: new Date() } });
      results.push({ source_id: id, target_id: id, outcome: same ? 'skipped' : 'updated' });
    }
    return { results };
  }
}
