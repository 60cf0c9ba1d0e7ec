import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { ImportBatchResponse, MAX_IMPORT_BATCH } from '../../imports/import-batch';
import { defineRpc } from '../../rpc/define-rpc';

/**
 * Internal (the importer, docs/services/imports.md): knowledge-base entries as GET /knowledge-base
 * answers them — FAQs, and documents' chunks — each with `source_id` (its context_id there). They are
 * embedded here as any new entry (the embedding worker's queue).
 */
const batch = (name: string) =>
  defineRpc({
    subject: `knowledge-base.v1.import.${name}`,
    service: 'knowledge-base',
    request: z.object({ ctx: RequestContextSchema, body: z.object({ items: z.array(z.unknown()).max(MAX_IMPORT_BATCH) }) }),
    response: ImportBatchResponse,
  });

export const ImportFaqsRpc = batch('faqs');
export const ImportDocumentsRpc = batch('documents');
export type ImportKbRequest = z.infer<typeof ImportFaqsRpc.request>;
