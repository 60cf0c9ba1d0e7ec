import { z } from 'zod';
import { importBatchRpc, importItemFields } from '../../imports/import-batch';

const text = z.string().max(100_000).nullable().optional();
const flag = z.boolean().nullable().optional();
const json = z.unknown().optional();

/**
 * The message object (spec 2.1) as the source's GET /chats/{chat_id}/messages answers it, read
 * leniently: the keys and the timestamp are required, every other field may be missing or null.
 */
export const ImportMessageObjectSchema = z.object({
  message_id: z.string().min(1).max(500),
  unique_id: z.string().min(1).max(300),
  chat_id: z.string().min(1).max(300),
  org_phone: z.string().max(100).nullable().optional(),
  sender_phone: z.string().min(1).max(300),
  from_me: z.boolean(),
  message_type: z.string().min(1).max(100),
  timestamp: z.iso.datetime({ offset: true }),
  updated_at: z.iso.datetime({ offset: true }).nullable().optional(),
  body: text,
  prev_body: text,
  /** Numeric string as spec 2.1 gives it, or a number. */
  ack: z
    .union([z.string().regex(/^-?[0-9]$/), z.number().int().min(-1).max(9)])
    .nullable()
    .optional(),
  delivery_info: json,
  mentioned_ids: z.array(z.string().max(300)).max(1000).nullable().optional(),
  media: json,
  sent_message_id: z.string().max(100).nullable().optional(),
  author: text,
  broadcast_id: text,
  device_type: text,
  duration: text,
  from: text,
  to: text,
  token: text,
  media_key: text,
  message_ticket_id: text,
  order_id: text,
  performed_by: text,
  quoted_message_id: text,
  broadcast: flag,
  flag_status: flag,
  has_media: flag,
  has_quoted_msg: flag,
  has_reaction: flag,
  is_deleted: flag,
  is_ephemeral: flag,
  is_forwarded: flag,
  is_gif: flag,
  is_starred: flag,
  is_status: flag,
  flag_response_time: z.number().nullable().optional(),
  forwarding_score: z.number().int().min(-2_147_483_648).max(2_147_483_647).nullable().optional(),
  flag_metadata: json,
  interactive: json,
  invite_v4: json,
  links: json,
  location: json,
  poll_info: json,
  poll_results: json,
  raw_data: json,
  vcards: json,
});

export const ImportMessageItemSchema = z.object({
  ...importItemFields,
  /** The target phone whose copy the message is. */
  phone_id: z.string().min(1).max(200),
  message: ImportMessageObjectSchema,
});
export type ImportMessageItem = z.infer<typeof ImportMessageItemSchema>;

/**
 * Internal (the importer, docs/services/chats.md "Import"): writes messages with their ids kept,
 * one copy per (phone_id, message_id), the chat created when missing. The same message stored by
 * the connector's ingestion is the same row. No message events (a backfill).
 */
export const ImportMessagesRpc = importBatchRpc('chats.v1.import.messages', 'chats');
export type ImportMessagesRequest = z.infer<typeof ImportMessagesRpc.request>;
