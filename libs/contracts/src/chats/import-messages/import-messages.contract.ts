import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { ImportBatchResponse, MAX_IMPORT_BATCH, importItemFields } from '../../imports/import-batch';
import { defineRpc } from '../../rpc/define-rpc';

/**
 * Internal (the importer, docs/services/imports.md): messages of a source organization, each the
 * spec 2.1 object as its GET messages answered it, onto one of this organization's phones. Items are
 * checked one by one (a bad one fails alone), so the batch takes them as they come.
 */
export const ImportMessageItem = z.object({
  ...importItemFields,
  phone_id: z.string().min(1).max(200),
  message: z.record(z.string(), z.unknown()),
});
export type ImportMessageItem = z.infer<typeof ImportMessageItem>;

export const ImportMessagesRpc = defineRpc({
  subject: 'chats.v1.import.messages',
  service: 'chats',
  request: z.object({ ctx: RequestContextSchema, body: z.object({ items: z.array(z.unknown()).max(MAX_IMPORT_BATCH) }) }),
  response: ImportBatchResponse,
});
export type ImportMessagesRequest = z.infer<typeof ImportMessagesRpc.request>;
