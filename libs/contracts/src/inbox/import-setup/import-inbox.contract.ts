import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { ImportBatchResponse, MAX_IMPORT_BATCH } from '../../imports/import-batch';
import { defineRpc } from '../../rpc/define-rpc';

/**
 * Internal (the importer, docs/services/imports.md): the inbox's records of a source organization,
 * each the object its GET route answers (ids of phones, labels and properties already ours), with
 * `source_id` and, from an earlier run's map, `target_id`. Items are checked one by one.
 */
const batch = (name: string) =>
  defineRpc({
    subject: `inbox.v1.import.${name}`,
    service: 'inbox',
    request: z.object({ ctx: RequestContextSchema, body: z.object({ items: z.array(z.unknown()).max(MAX_IMPORT_BATCH) }) }),
    response: ImportBatchResponse,
  });

export const ImportLabelsRpc = batch('labels');
export const ImportCustomPropertiesRpc = batch('custom-properties');
export const ImportTicketsRpc = batch('tickets');
export const ImportNotesRpc = batch('notes');
export const ImportTasksRpc = batch('tasks');
export type ImportInboxRequest = z.infer<typeof ImportLabelsRpc.request>;
