import { z } from 'zod';
import { importBatchRpc, importItemFields } from '../../imports/import-batch';

/**
 * The reaction object as the source's GET /reactions answers it (ReactionType), read leniently,
 * with the target phone whose copy of the message it is on. `source_id`: any stable key (e.g.
 * message id + sender).
 */
export const ImportReactionItemSchema = z.object({
  ...importItemFields,
  phone_id: z.string().min(1).max(200),
  message_id: z.string().min(1).max(500),
  msg_id: z
    .object({ from_me: z.boolean(), id: z.string().min(1).max(300) })
    .nullable()
    .optional(),
  chat_id: z.string().min(1).max(300),
  sender_phone: z.string().min(1).max(300).nullable().optional(),
  sender_id: z.string().min(1).max(300).nullable().optional(),
  /** The emoji; '' for one taken back. */
  reaction: z.string().max(100).nullable(),
  reaction_id: z.string().max(300).nullable().optional(),
  unique_id: z.string().max(300).nullable().optional(),
  timestamp: z.iso.datetime({ offset: true }),
});
export type ImportReactionItem = z.infer<typeof ImportReactionItemSchema>;

/**
 * Internal (the importer, docs/services/chats.md "Import"): writes each sender's reaction to a
 * message copy already imported, as ingestion keeps them. No reaction events (a backfill).
 */
export const ImportReactionsRpc = importBatchRpc('chats.v1.import.reactions', 'chats');
export type ImportReactionsRequest = z.infer<typeof ImportReactionsRpc.request>;
