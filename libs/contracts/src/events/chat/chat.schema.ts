import { z } from 'zod';

const nullableString = z.string().nullable();
const nullableBoolean = z.boolean().nullable();
const nullableNumber = z.number().nullable();
const nullableJson = z.unknown().nullable();

/**
 * The chat object of the wider API: the columns of `tbl_chats` (@periskope/types), every one present,
 * null where this service has no value for it; plus `phone_id`, the phone whose copy of the chat it is
 * (each phone keeps its own). Timestamps are ISO 8601.
 */
export const ChatSchema = z.object({
  chat_id: z.string(),
  org_id: z.uuid(),
  /** Contact id of the phone the chat belongs to. */
  org_phone: z.string(),
  phone_id: z.string(),
  /** user | group | business */
  chat_type: nullableString,
  chat_name: nullableString,
  name: nullableString,
  chat_image: nullableString,
  is_group: nullableBoolean,
  archived: nullableBoolean,
  pinned: nullableBoolean,
  is_muted: nullableBoolean,
  mute_expiration: nullableNumber,
  is_exited: nullableBoolean,
  is_read_only: nullableBoolean,
  unread_count: nullableNumber,
  member_count: nullableNumber,
  member_unread_count: nullableJson,
  flag_count: nullableNumber,
  group_metadata: nullableJson,
  id: nullableJson,
  invite_link: nullableString,
  initiated_by: nullableString,
  created_by: nullableString,
  latest_message: nullableJson,
  latest_mention_at: nullableString,
  pinned_messages: nullableJson,
  timestamp: nullableString,
  created_at: z.string(),
  updated_at: z.string(),
});
export type Chat = z.infer<typeof ChatSchema>;

/**
 * A chat with what the team inbox keeps on it, organization-wide (`tbl_chat_properties` of
 * @periskope/types, shared by the organization's phones that hold the chat): `custom_properties`
 * (property id → value), `label_ids` (label id → true) and `assigned_to` (an email). The tbl_chats
 * columns are those of the chat's most recently active copy within the caller's reach.
 */
export const ChatWithPropertiesSchema = ChatSchema.extend({
  custom_properties: z.record(z.string(), z.string()).nullable(),
  label_ids: z.record(z.string(), z.boolean()),
  assigned_to: nullableString,
});
export type ChatWithProperties = z.infer<typeof ChatWithPropertiesSchema>;
