import { z } from 'zod';
import { ChatSchema } from '../../events/chat/chat.schema';
import { MessageSchema } from '../message/message.schema';

const nullableString = z.string().nullable();
const nullableBoolean = z.boolean().nullable();
const nullableJson = z.unknown().nullable();

/**
 * A group member as `ChatMemberType` of @periskope/types gives it: the `tbl_chat_participants` row
 * merged with the `tbl_contacts` row: the member's contact of the organization (names, labels,
 * is_internal, as the contact object gives them); columns not kept, and every contact column of a
 * member without a contact, are null, except what the contact id itself says (`number`, `is_me`,
 * `is_group`, `is_user`).
 */
export const ChatMemberSchema = z.object({
  chat_id: z.string(),
  contact_id: z.string(),
  org_id: z.uuid(),
  org_phone: z.string(),
  id: nullableJson,
  is_admin: nullableBoolean,
  is_super_admin: nullableBoolean,
  business_profile: nullableJson,
  contact_color: nullableString,
  contact_image: nullableString,
  contact_lid: nullableString,
  contact_name: nullableString,
  contact_type: nullableString,
  is_blocked: nullableBoolean,
  is_business: nullableBoolean,
  is_enterprise: nullableBoolean,
  is_group: nullableBoolean,
  is_imported: nullableBoolean,
  is_internal: nullableBoolean,
  is_me: nullableBoolean,
  is_my_contact: nullableBoolean,
  is_user: nullableBoolean,
  is_wa_contact: nullableBoolean,
  label_ids: nullableJson,
  name: nullableString,
  number: nullableString,
  periskope_name: nullableString,
  pushname: nullableString,
  short_name: nullableString,
  updated_at: nullableString,
  verified_level: z.number().nullable(),
  verified_name: nullableString,
});
export type ChatMember = z.infer<typeof ChatMemberSchema>;

/**
 * The chat object of GET /chats and GET /chats/{chat_id}: `ChatType` of @periskope/types (the
 * `view_chats` row with its overrides), one per chat id of the organization. It is the chat.created
 * object (`tbl_chats` columns, built by the same mapChat) with the view's columns added and the
 * overrides ChatType makes: `latest_message` is the spec 2.1 message, `unread_count` a map, the
 * chat type one of four. Phone-dependent fields come from the chat's most recently active phone
 * within the caller's reach (`phone_id`, `org_phone`, `active_phone`); `chat_org_phones` lists every
 * such phone that has the chat. Every field ChatType declares is present; null where nothing is kept.
 */
export const ChatViewSchema = ChatSchema.extend({
  org_phone: nullableString,
  chat_type: z.enum(['user', 'group', 'business', 'unknown']),
  latest_message: MessageSchema.nullable(),
  /** Epoch milliseconds of latest_message.timestamp. */
  latest_message_timestamp: z.number().nullable(),
  /** Per phone (its org_phone) that has the chat: epoch milliseconds of its newest message. */
  latest_message_timestamp_map: z.record(z.string(), z.number().nullable()),
  members: z.record(z.string(), ChatMemberSchema).nullable(),
  chat_access: z.record(z.string(), z.boolean()),
  label_ids: z.record(z.string(), z.boolean()),
  chat_org_phones: z.array(z.string()),
  /** Unread inbound messages (the largest count among the phones in reach: they see the same chat). */
  message_unread_count: z.number().int().nullable(),
  /** Per phone (its org_phone): unread inbound messages. */
  unread_count: z.record(z.string(), z.number().int()),
  /** Flagged messages of the chat (flag_status) on the phones in reach, a message two phones hold counted once. */
  flag_count: z.number().int().nullable(),
  hubspot_metadata: nullableJson,
  info_admins_only: z.boolean(),
  messages_admins_only: z.boolean(),
  active_phone: nullableString,
  add_members_admins_only: nullableBoolean,
  ai_metadata: nullableJson,
  assigned_to: nullableString,
  closed_at: z.number().nullable(),
  custom_properties: nullableJson,
  freshdesk_metadata: nullableJson,
  group_description: nullableString,
  member_closed_at: nullableJson,
  override_chat_access: nullableJson,
  parent_community_id: nullableString,
  snooze_metadata: nullableJson,
  zohodesk_metadata: nullableJson,
});
export type ChatView = z.infer<typeof ChatViewSchema>;
