import type { ImportBatchResponse, ImportInboxRequest } from '@mapi/contracts';
import type { PrismaClient } from '@mapi/db';
import { eachItem, str, upsertKeptId, type KeptIdTable } from '../../imports/kept-id-upsert';

const VALUE_TYPES = new Set(['text', 'dropdown', 'number', 'date', 'email', 'phone', 'url', 'checkbox']);

/** inbox.v1.import.custom-properties (the importer): definitions; one of the same type and name here is the same one. */
export class ImportCustomProperties {
  constructor(private readonly prisma: PrismaClient) {}

  async execute({ ctx, body }: ImportInboxRequest): Promise<ImportBatchResponse> {
    const results = await eachItem(body.items, async (item, sourceId) => {
      const name = str(item.property_name)?.trim();
      if (!name || name.length > 100) throw new Error('property_name must be 1 to 100 characters');
      const valueType = str(item.property_value_type) ?? 'text';
      const options = str(item.property_value);
      return upsertKeptId(this.prisma.inboxCustomProperty as unknown as KeptIdTable, 'property_id', ctx.org_id, {
        source_id: sourceId,
        target_id: str(item.target_id) ?? undefined,
        data: {
          property_value_type: VALUE_TYPES.has(valueType) ? valueType : 'text',
          property_value: valueType === 'dropdown' && options ? options.split(',').map((o) => o.trim()).filter(Boolean) : [],
          is_required: item.is_required === true,
        },
        natural: { type: str(item.type) ?? 'chat', property_name: name },
      });
    });
    return { results };
  }
}
