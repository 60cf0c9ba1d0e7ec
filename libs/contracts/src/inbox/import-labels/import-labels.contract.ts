import { z } from 'zod';
import { importBatchRpc, importItemFields } from '../../imports/import-batch';
import { LabelColorSchema, LabelNameSchema, LabelTypeSchema } from '../label/label.schema';

/**
 * One label of the source organization: the `tbl_org_labels` row as GET /labels answers it, or only
 * `name` when the source has no labels route and the importer derived the label from the names its
 * chats, contacts and tickets carry. The use case checks each item against this (a bad one fails alone).
 */
export const ImportLabelItem = z.looseObject({
  ...importItemFields,
  name: LabelNameSchema,
  color: LabelColorSchema.nullish(),
  type: LabelTypeSchema.nullish(),
  created_at: z.string().nullish(),
});
export type ImportLabelItem = z.infer<typeof ImportLabelItem>;

/** Internal (the importer, docs/services/inbox.md "Import"): labels; one of the same type and name here is the same label. */
export const ImportLabelsRpc = importBatchRpc('inbox.v1.import.labels', 'inbox');
export type ImportLabelsRequest = z.infer<typeof ImportLabelsRpc.request>;
