import { z } from 'zod';

const nullableString = z.string().nullable();
const nullableBoolean = z.boolean().nullable();
const nullableNumber = z.number().nullable();
const nullableJson = z.unknown().nullable();
const epochMsByContact = z.record(z.string(), z.number());

export const DeliveryInfoSchema = z.object({
  delivered_count: z.number(),
  read_count: z.number(),
  pending: z.array(z.string()),
  delivered: epochMsByContact.optional(),
  read: epochMsByContact.optional(),
});
export type DeliveryInfo = z.infer<typeof DeliveryInfoSchema>;

export const MediaSchema = z.object({
  dimensions: z.object({ ar: z.number(), height: z.number(), width: z.number() }),
  filename: z.string(),
  mimetype: z.string(),
  path: z.string(),
  size: z.number(),
  thumbnail: z.string(),
});
export type Media = z.infer<typeof MediaSchema>;

/** ISO 8601 with an explicit offset, e.g. 2024-05-01T10:00:00+00:00 (spec 2.1 `timestamp`). */
export const IsoWithOffset = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?[+-]\d{2}:\d{2}$/);

/** The message object, spec 2.1; field types the spec shows only as null follow ../shared/reference/wider-api.md. */
export const MessageSchema = z.strictObject({
  message_id: z.string(),
  unique_id: z.string(),
  id: z.strictObject({ from_me: z.boolean(), id: z.string(), remote: z.string(), serialized: z.string() }),
  chat_id: z.string(),
  org_id: z.uuid(),
  org_phone: z.string(),
  sender_phone: z.string(),
  from_me: z.boolean(),
  body: nullableString,
  prev_body: nullableString,
  message_type: z.string(),
  timestamp: IsoWithOffset,
  updated_at: IsoWithOffset,
  /** Numeric string: -1 failed, 0 pending, 1 server, 2 delivered, 3 read, 4 played. */
  ack: z.string().regex(/^-?[0-9]$/),
  delivery_info: DeliveryInfoSchema,
  mentioned_ids: z.array(z.string()),
  media: MediaSchema.nullable(),
  fts: nullableString,
  broadcast: nullableBoolean,
  sent_message_id: z.uuid().nullable(),
  author: nullableString,
  broadcast_id: nullableString,
  device_type: nullableString,
  duration: nullableString,
  flag_metadata: nullableJson,
  flag_response_time: nullableNumber,
  flag_status: nullableBoolean,
  forwarding_score: nullableNumber,
  from: nullableString,
  has_media: nullableBoolean,
  has_quoted_msg: nullableBoolean,
  has_reaction: nullableBoolean,
  interactive: nullableJson,
  invite_v4: nullableJson,
  is_deleted: nullableBoolean,
  is_ephemeral: nullableBoolean,
  is_forwarded: nullableBoolean,
  is_gif: nullableBoolean,
  is_starred: nullableBoolean,
  is_status: nullableBoolean,
  links: nullableJson,
  location: nullableJson,
  media_key: nullableString,
  message_ticket_id: nullableString,
  order_id: nullableString,
  performed_by: nullableString,
  poll_info: nullableJson,
  poll_results: nullableJson,
  quoted_message_id: nullableString,
  raw_data: nullableJson,
  to: nullableString,
  token: nullableString,
  vcards: z.array(z.string()).nullable(),
});
export type Message = z.infer<typeof MessageSchema>;
