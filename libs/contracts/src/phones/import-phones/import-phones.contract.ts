import { z } from 'zod';
import { importBatchRpc, importItemFields } from '../../imports/import-batch';

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

export const ImportPhonesRpc = importBatchRpc('phones.v1.import.phones', 'phones');
export type ImportPhonesRequest = z.infer<typeof ImportPhonesRpc.request>;
