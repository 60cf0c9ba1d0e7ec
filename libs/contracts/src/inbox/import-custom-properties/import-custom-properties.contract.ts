import { z } from 'zod';
import { importBatchRpc, importItemFields } from '../../imports/import-batch';
import { PropertyNameSchema, PropertyOptionsSchema, PropertyValueTypeSchema } from '../custom-property/custom-property.schema';

/** One definition of the source organization, the `tbl_custom_properties` row as GET /custom-properties answers it. */
export const ImportCustomPropertyItem = z.looseObject({
  ...importItemFields,
  property_name: PropertyNameSchema,
  property_value_type: PropertyValueTypeSchema.nullish(),
  /** A dropdown's options, comma-separated (the hosted object's form) or an array. */
  property_value: PropertyOptionsSchema.nullish(),
  is_required: z.boolean({ error: 'is_required must be a boolean' }).nullish(),
  type: z.enum(['chat', 'ticket'], { error: 'type must be chat or ticket' }).nullish(),
  created_by: z.string().nullish(),
  created_at: z.string().nullish(),
});
export type ImportCustomPropertyItem = z.infer<typeof ImportCustomPropertyItem>;

/** Internal (the importer, docs/services/inbox.md "Import"): custom property definitions, matched by name. */
export const ImportCustomPropertiesRpc = importBatchRpc('inbox.v1.import.custom-properties', 'inbox');
export type ImportCustomPropertiesRequest = z.infer<typeof ImportCustomPropertiesRpc.request>;
