import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { ImportBatchResponse, MAX_IMPORT_BATCH, importItemFields } from '../../imports/import-batch';
import { defineRpc } from '../../rpc/define-rpc';

/** Internal (the importer): reactions as GET /reactions answers them, onto one of this organization's phones. */
export const ImportReactionItem = z.object({
  ...importItemFields,
  phone_id: z.string().min(1).max(200),
  message_id: z.string().min(1).max(512),
  chat_id: z.string().min(1).max(300),
  sender_phone: z.string().min(1).max(200),
  reaction_id: z.string().min(1).max(300),
  reaction: z.string().max(64).nullable(),
  timestamp: z.string().nullable(),
});
export type ImportReactionItem = z.infer<typeof ImportReactionItem>;

export const ImportReactionsRpc = defineRpc({
  subject: 'chats.v1.import.reactions',
  service: 'chats',
  request: z.object({ ctx: RequestContextSchema, body: z.object({ items: z.array(z.unknown()).max(MAX_IMPORT_BATCH) }) }),
  response: ImportBatchResponse,
});
