import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { ImportBatchResponse, MAX_IMPORT_BATCH } from '../../imports/import-batch';
import { defineRpc } from '../../rpc/define-rpc';

/** Internal (the importer): contacts as GET /contacts answers them, each with `source_id` (its contact id). */
export const ImportContactsRpc = defineRpc({
  subject: 'chats.v1.import.contacts',
  service: 'chats',
  request: z.object({ ctx: RequestContextSchema, body: z.object({ items: z.array(z.unknown()).max(MAX_IMPORT_BATCH) }) }),
  response: ImportBatchResponse,
});
export type ImportContactsRequest = z.infer<typeof ImportContactsRpc.request>;
