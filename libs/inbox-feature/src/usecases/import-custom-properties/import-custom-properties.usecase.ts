import {
  ImportCustomPropertyItem,
  MAX_CUSTOM_PROPERTIES,
  propertyOptions,
  type ImportBatchResponse,
  type ImportCustomPropertiesRequest,
  type ImportItemResult,
  type RequestContext,
} from '@mapi/contracts';
import type { PrismaClient } from '@mapi/db';
import { ItemRefused, date, eachItem } from '../../imports/import-items';
import { changedColumns, findKept, newKeptId, uuidId } from '../../imports/kept-id';
import { CustomPropertyRepository, type CustomPropertyRow } from '../../repositories/custom-property-repository';

/**
 * inbox.v1.import.custom-properties (the importer): the source's definitions. Names are unique per
 * organization regardless of case, so a property of that name here is the same one (its options and
 * is_required follow the source's); else the row the id map or source id names (renamed); else a new
 * one at the source's id when it is a free uuid. The value type and what the property is set on never
 * change (values held would stop reading as them): a clash is a failed item.
 */
export class ImportCustomProperties {
  constructor(private readonly prisma: PrismaClient) {}

  async execute({ ctx, body }: ImportCustomPropertiesRequest): Promise<ImportBatchResponse> {
    return { results: await eachItem(body.items, ImportCustomPropertyItem, (item) => this.one(ctx, item)) };
  }

  private async one(ctx: RequestContext, item: ImportCustomPropertyItem): Promise<ImportItemResult> {
    const properties = new CustomPropertyRepository(this.prisma);
    const valueType = item.property_value_type ?? 'text';
    const type = item.type ?? 'chat';
    const options = valueType === 'dropdown' && item.property_value ? propertyOptions(item.property_value) : [];
    const data = { property_name: item.property_name, property_value: options, is_required: item.is_required === true };
    // the unique index is on lower(property_name): the same test, not ILIKE (whose _ and % are patterns)
    const [named] = await this.prisma.$queryRaw<CustomPropertyRow[]>`
      SELECT * FROM inbox_custom_properties WHERE org_id = ${ctx.org_id}::uuid AND lower(property_name) = lower(${item.property_name}) LIMIT 1`;
    const here = named ?? (await findKept(this.prisma.inboxCustomProperty, 'property_id', ctx.org_id, item, uuidId));
    if (here) return this.change(properties, ctx.org_id, item.source_id, here, { valueType, type }, data);
    if ((await properties.count(ctx.org_id)) >= MAX_CUSTOM_PROPERTIES)
      throw new ItemRefused(`an organization has at most ${MAX_CUSTOM_PROPERTIES} custom properties`);
    const propertyId = await newKeptId(this.prisma.inboxCustomProperty, 'property_id', item, uuidId);
    const row = await properties.create(ctx.org_id, {
      ...data,
      property_id: propertyId,
      property_value_type: valueType,
      type,
      created_by: item.created_by ?? null,
    });
    // a property of that name made meanwhile: the next run matches it by name
    if (!row) throw new ItemRefused(`a custom property named ${item.property_name} was made here meanwhile`);
    const createdAt = date(item.created_at);
    if (createdAt)
      await this.prisma.inboxCustomProperty.updateMany({
        where: { org_id: ctx.org_id, property_id: propertyId },
        data: { created_at: createdAt },
      });
    return { source_id: item.source_id, target_id: propertyId, outcome: 'created' };
  }

  private async change(
    properties: CustomPropertyRepository,
    orgId: string,
    sourceId: string,
    here: CustomPropertyRow,
    kind: { valueType: string; type: string },
    data: { property_name: string; property_value: string[]; is_required: boolean },
  ): Promise<ImportItemResult> {
    if (here.property_value_type !== kind.valueType || here.type !== kind.type) {
      throw new ItemRefused(
        `the custom property ${here.property_name} here is a ${here.type} property of type ${here.property_value_type}; the source's is a ${kind.type} property of type ${kind.valueType}`,
      );
    }
    const changes = changedColumns(here, data);
    if (!Object.keys(changes).length) return { source_id: sourceId, target_id: here.property_id, outcome: 'skipped' };
    const row = await properties.update(orgId, here.property_id, changes);
    if (row === 'name-taken') throw new ItemRefused(`a custom property named ${data.property_name} is here already`);
    if (row === 'missing') throw new ItemRefused(`the custom property ${here.property_id} was deleted meanwhile`);
    return { source_id: sourceId, target_id: here.property_id, outcome: 'updated' };
  }
}
