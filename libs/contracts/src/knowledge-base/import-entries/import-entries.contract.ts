import { z } from 'zod';
import { importBatchRpc } from '../../imports/import-batch';

/**
 * Internal (the importer, docs/services/imports.md): knowledge-base entries as GET /knowledge-base
 * answers them — FAQs, and documents' chunks — each with `source_id` (its context_id there). They are
 * embedded here as any new entry (the embedding worker's queue).
 */
const batch = (name: string) => importBatchRpc(`knowledge-base.v1.import.${name}`, 'knowledge-base');

export const ImportFaqsRpc = batch('faqs');
export const ImportDocumentsRpc = batch('documents');
export type ImportKbRequest = z.infer<typeof ImportFaqsRpc.request>;
