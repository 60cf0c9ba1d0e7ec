// The chat rows that repositories read and mappers turn into API objects: here, below both, so that
// neither has to import the other for a type.

/** A phone's stored chat, with the contact id of that phone. */
export interface PhoneChatRow {
  org_id: string;
  phone_id: string;
  org_phone: string;
  chat_id: string;
  chat_name: string | null;
  chat_type: string;
  created_at: Date;
  updated_at: Date;
  /** chats.pinned_messages as stored (absent: none). */
  pinned_messages?: unknown;
}

/** One phone's copy of a chat, as the chat object's per-phone maps need it. */
export interface ChatCopy {
  phone_id: string;
  org_phone: string | null;
  unread_count: number;
  latest_message_at: Date | null;
  /** chats.pinned_messages of this copy (pinned-messages.ts); absent or null: none. */
  pinned_messages?: unknown;
  /** The reading member's unread messages on this copy (their read mark; decision 0091); absent or null: not a member's read. */
  member_unread?: number | null;
}

/**
 * A chat of the organization: the row of its most recently active phone within reach (ties: the
 * greatest phone_id), with every copy within reach.
 */
export interface ChatViewRow {
  org_id: string;
  phone_id: string;
  chat_id: string;
  chat_name: string | null;
  chat_type: string;
  org_phone: string | null;
  created_at: Date;
  updated_at: Date;
  /** messages.id of the representative copy's newest message. */
  latest_message_id: string | null;
  latest_message_at: Date | null;
  activity_at: Date;
  /** Group settings of the representative copy (chats columns; defaults for other chats). */
  group_description: string | null;
  info_admins_only: boolean;
  messages_admins_only: boolean;
  add_members_admins_only: boolean | null;
  copies: ChatCopy[];
  /** Flagged messages (flag_status) of the chat on the phones in reach, each counted once; absent: not read. */
  flag_count?: number;
  /** The organization's team-inbox values of the chat (chat_properties, chat_labels); empty when none. */
  properties: ChatPropertyValues;
}

export interface GroupMemberRow {
  phone_id: string;
  chat_id: string;
  contact_id: string;
  is_admin: boolean;
  is_super_admin: boolean;
  /** The member's contact of the organization (null columns when it has none). */
  contact_name?: string | null;
  pushname?: string | null;
  is_internal?: boolean | null;
  labels?: string[] | null;
  is_imported?: boolean | null;
  contact_updated_at?: Date | null;
}

/** What the team inbox keeps on a chat, organization-wide. */
export interface ChatPropertyValues {
  assigned_to: string | null;
  /** property_id → value */
  custom_properties: Record<string, string>;
  override_chat_access: Record<string, unknown> | null;
  /** label ids, sorted */
  label_ids: string[];
}
