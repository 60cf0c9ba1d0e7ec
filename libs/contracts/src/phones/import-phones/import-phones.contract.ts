import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { ImportBatchResponse, MAX_IMPORT_BATCH, importItemFields } from '../../imports/import-batch';
import { defineRpc } from '../../rpc/define-rpc';

/**
 * Internal (the importer, docs/services/imports.md): a source's phones, as GET /phones/all answers
 * them, made here as phones to reconnect by QR with their names, numbers and labels.
 */
export const ImportPhoneItem = z.object({
  ...importItemFields,
  phone_name: z.string().max(200).nullable().optional(),
  org_phone: z.string().max(200).nullable().optional(),
  labels: z.array(z.string().max(100)).max(100).optional(),
});

export const ImportPhonesRpc = defineRpc({
  subject: 'phones.v1.import.phones',
  service: 'phones',
  request: z.object({ ctx: RequestContextSchema, body: z.object({ items: z.array(z.unknown()).max(MAX_IMPORT_BATCH) }) }),
  response: ImportBatchResponse,
});
export type ImportPhonesRequest = z.infer<typeof ImportPhonesRpc.request>;
