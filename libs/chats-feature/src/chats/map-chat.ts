import type { Chat } from '@mapi/contracts';

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
}

/**
 * The one place a stored chat becomes the chat object (the columns of the wider API's tbl_chats):
 * what this service keeps is filled in, the rest — unread counts, mute, pins, the latest message,
 * which it does not track — is null.
 */
export function mapChat(row: PhoneChatRow): Chat {
  return {
    chat_id: row.chat_id,
    org_id: row.org_id,
    org_phone: row.org_phone,
    phone_id: row.phone_id,
    chat_type: row.chat_type,
    chat_name: row.chat_name,
    name: row.chat_name,
    chat_image: null,
    is_group: row.chat_type === 'group',
    archived: null,
    pinned: null,
    is_muted: null,
    mute_expiration: null,
    is_exited: null,
    is_read_only: null,
    unread_count: null,
    member_count: null,
    member_unread_count: null,
    flag_count: null,
    group_metadata: null,
    id: null,
    invite_link: null,
    initiated_by: null,
    created_by: null,
    latest_message: null,
    latest_mention_at: null,
    pinned_messages: null,
    timestamp: null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
