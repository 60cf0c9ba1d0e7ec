import { z } from 'zod';
import { importBatchRpc, importItemFields } from '../../imports/import-batch';
import { ContactIdSchema } from '../contacts/contact.schema';

/**
 * One contact as the source's GET /contacts answers it (ContactType), read leniently: only what
 * `contacts` keeps is looked at. `source_id` is the contact id (natural: kept as it is).
 */
export const ImportContactItemSchema = z.object({
  ...importItemFields,
  contact_id: ContactIdSchema,
  contact_name: z.string().max(200).nullable().optional(),
  periskope_name: z.string().max(200).nullable().optional(),
  name: z.string().max(200).nullable().optional(),
  pushname: z.string().max(200).nullable().optional(),
  is_internal: z.boolean().nullable().optional(),
  is_imported: z.boolean().nullable().optional(),
  labels: z.array(z.string().max(100)).max(500).nullable().optional(),
  label_ids: z.record(z.string().max(100), z.boolean()).nullable().optional(),
});
export type ImportContactItem = z.infer<typeof ImportContactItemSchema>;

/**
 * Internal (the importer, docs/services/chats.md "Import"): writes contacts of the organization with
 * their names, labels and is_internal. Items are validated one by one (a bad one is answered failed).
 */
export const ImportContactsRpc = importBatchRpc('chats.v1.import.contacts', 'chats');
export type ImportContactsRequest = z.infer<typeof ImportContactsRpc.request>;
