import type { ImportBatchResponse, ImportInboxRequest } from '@mapi/contracts';
import type { PrismaClient } from '@mapi/db';
import { eachItem, str, upsertKeptId, type KeptIdTable } from '../../imports/kept-id-upsert';

const COLOR = /^#[0-9a-fA-F]{6}$/;

/** inbox.v1.import.labels (the importer): a label of the same type and name here is the same label. */
export class ImportLabels {
  constructor(private readonly prisma: PrismaClient) {}

  async execute({ ctx, body }: ImportInboxRequest): Promise<ImportBatchResponse> {
    const results = await eachItem(body.items, async (item, sourceId) => {
      const name = str(item.name)?.trim().toLowerCase();
      if (!name || name.length > 100) throw new Error('name must be 1 to 100 characters');
      const color = str(item.color);
      const type = str(item.type) ?? 'chat';
      return upsertKeptId(this.prisma.inboxLabel as unknown as KeptIdTable, 'label_id', ctx.org_id, {
        source_id: sourceId,
        target_id: str(item.target_id) ?? undefined,
        data: { name, ...(color && COLOR.test(color) ? { color } : {}), ...(item.created_at ? {} : {}) },
        natural: { type, name },
      });
    });
    return { results };
  }
}
