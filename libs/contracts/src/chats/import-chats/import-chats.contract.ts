import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { ImportBatchResponse, MAX_IMPORT_BATCH, importItemFields } from '../../imports/import-batch';
import { defineRpc } from '../../rpc/define-rpc';

/**
 * Internal (the importer): a source chat on each of this organization's phones that holds it, with
 * the values the chats service keeps per chat of the organization — labels (ids and names here),
 * custom property values (keyed by property ids here) and assignee.
 */
export const ImportChatItem = z.object({
  ...importItemFields,
  phones: z.array(z.object({ phone_id: z.string().min(1).max(200), org_phone: z.string().max(200).nullable().optional() })).min(1).max(50),
  chat: z.record(z.string(), z.unknown()),
  labels: z.array(z.object({ label_id: z.uuid(), name: z.string().min(1).max(100) })).max(200).default([]),
  custom_properties: z.record(z.string(), z.unknown()).default({}),
  assigned_to: z.string().max(320).nullable().default(null),
});
export type ImportChatItem = z.infer<typeof ImportChatItem>;

export const ImportChatsRpc = defineRpc({
  subject: 'chats.v1.import.chats',
  service: 'chats',
  request: z.object({ ctx: RequestContextSchema, body: z.object({ items: z.array(z.unknown()).max(MAX_IMPORT_BATCH) }) }),
  response: ImportBatchResponse,
});
export type ImportChatsRequest = z.infer<typeof ImportChatsRpc.request>;
