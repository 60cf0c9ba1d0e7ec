import { z } from 'zod';
import { importBatchRpc, importItemFields } from '../../imports/import-batch';

/**
 * One private note of the source organization, the `tbl_chat_notes` row as GET /note answers it, with
 * `phone_id` (the phone here) when the importer knows it; else the phone of `org_phone`, else the
 * chat's phone here.
 */
export const ImportNoteItem = z.looseObject({
  ...importItemFields,
  chat_id: z.string({ error: 'chat_id must be a string' }).min(1, 'chat_id must not be empty'),
  body: z.string({ error: 'body must be a string' }).min(1, 'body must not be empty'),
  phone_id: z.string().min(1).max(200).nullish(),
  org_phone: z.string().nullish(),
  quoted_message_id: z.string().nullish(),
  performed_by: z.string().nullish(),
  timestamp: z.string().nullish(),
  updated_at: z.string().nullish(),
  media: z.unknown().optional(),
});
export type ImportNoteItem = z.infer<typeof ImportNoteItem>;

/** Internal (the importer, docs/services/inbox.md "Import"): notes with their author and time. */
export const ImportNotesRpc = importBatchRpc('inbox.v1.import.notes', 'inbox');
export type ImportNotesRequest = z.infer<typeof ImportNotesRpc.request>;
