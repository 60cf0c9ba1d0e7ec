import type { Chat, ChatMember, ChatView } from '@mapi/contracts';
import { mapMessage } from '../messages/map-message';
import type { ChatCopy, ChatViewRow, GroupMemberRow, PhoneChatRow } from '../rows/chat-rows';
import type { MessageRow } from '../rows/message-row';
import { livePins, livePinsOfCopies } from './pinned-messages';

/**
 * The one place a stored chat becomes the chat object (the columns of the wider API's tbl_chats):
 * what this service keeps is filled in (pinned messages too: pinned-messages.ts), the rest — unread
 * counts, mute, the latest message, which it does not track — is null.
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
    pinned_messages: livePins(row.pinned_messages),
    timestamp: null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** How a chat type reads in ChatType ('unknown' for anything this service did not store as one of the three). */
const chatType = (t: string): ChatView['chat_type'] => (t === 'user' || t === 'group' || t === 'business' ? t : 'unknown');

/**
 * A member as ChatMemberType: the participant row merged with the member's contact of the
 * organization (names as map-contact gives them); contact columns null when it has none.
 */
export function mapMember(orgId: string, orgPhone: string | null, m: GroupMemberRow): ChatMember {
  return {
    chat_id: m.chat_id,
    contact_id: m.contact_id,
    org_id: orgId,
    org_phone: orgPhone ?? '',
    id: null,
    is_admin: m.is_admin,
    is_super_admin: m.is_super_admin,
    business_profile: null,
    contact_color: null,
    contact_image: null,
    contact_lid: null,
    contact_name: m.contact_name ?? m.pushname ?? null,
    contact_type: null,
    is_blocked: null,
    is_business: null,
    is_enterprise: null,
    is_group: false,
    is_imported: m.is_imported ?? null,
    is_internal: m.is_internal ?? null,
    is_me: orgPhone !== null && m.contact_id === orgPhone,
    is_my_contact: null,
    is_user: true,
    is_wa_contact: null,
    label_ids: m.labels ? Object.fromEntries(m.labels.map((l) => [l, true])) : null,
    name: m.contact_name ?? null,
    number: m.contact_id.replace(/@c\.us$/, ''),
    periskope_name: m.contact_name ?? null,
    pushname: m.pushname ?? null,
    short_name: null,
    updated_at: m.contact_updated_at ? new Date(m.contact_updated_at).toISOString() : null,
    verified_level: null,
    verified_name: null,
  };
}

/**
 * The chat object of GET /chats and GET /chats/{chat_id} (ChatType): what mapChat says of the
 * representative copy (map-chat.spec.ts holds the two to the same columns), with the view's fields.
 * `members` is null for a chat that is not a group; per-phone maps are keyed by the phone's number
 * (its phone_id while the number is not known).
 * Written as one object literal on purpose: spreading mapChat's object and adding the view's 30
 * fields is slow in V8, a large share of a big page's time (docs/benchmarks.md, "GET /chats and GET /chats/messages").
 */
export function mapChatView(
  row: ChatViewRow,
  latest: MessageRow | null,
  members: GroupMemberRow[] | null,
  readerEmail: string | null = null,
): ChatView {
  const key = (c: ChatCopy) => c.org_phone ?? c.phone_id;
  const unreadByPhone: Record<string, number> = {};
  const latestByPhone: Record<string, number | null> = {};
  const orgPhones: string[] = [];
  let unread = 0;
  let memberUnread: number | null = null;
  for (const c of row.copies) {
    if (c.member_unread !== undefined && c.member_unread !== null) memberUnread = Math.max(memberUnread ?? 0, c.member_unread);
    const k = key(c);
    unreadByPhone[k] = c.unread_count;
    latestByPhone[k] = c.latest_message_at?.getTime() ?? null;
    orgPhones.push(k);
    if (c.unread_count > unread) unread = c.unread_count;
  }
  return {
    chat_id: row.chat_id,
    org_id: row.org_id,
    org_phone: row.org_phone,
    phone_id: row.phone_id,
    chat_type: chatType(row.chat_type),
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
    unread_count: unreadByPhone,
    member_count: members ? members.length : null,
    // The reading member's own count (hosted: {email: n}), the largest among the copies in reach; others' are not shown.
    member_unread_count: readerEmail && memberUnread !== null ? { [readerEmail]: memberUnread } : null,
    flag_count: row.flag_count ?? null,
    group_metadata: null,
    id: null,
    invite_link: null,
    initiated_by: null,
    created_by: null,
    latest_message: latest ? mapMessage(latest) : null,
    latest_mention_at: null,
    pinned_messages: livePinsOfCopies(row.copies.map((c) => c.pinned_messages)),
    timestamp: null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    latest_message_timestamp: latest ? latest.timestamp.getTime() : null,
    latest_message_timestamp_map: latestByPhone,
    members: members ? Object.fromEntries(members.map((m) => [m.contact_id, mapMember(row.org_id, row.org_phone, m)])) : null,
    chat_access: {},
    label_ids: Object.fromEntries(row.properties.label_ids.map((id) => [id, true])),
    chat_org_phones: orgPhones,
    message_unread_count: unread,
    hubspot_metadata: null,
    info_admins_only: row.info_admins_only,
    messages_admins_only: row.messages_admins_only,
    active_phone: row.org_phone,
    add_members_admins_only: row.add_members_admins_only,
    ai_metadata: null,
    assigned_to: row.properties.assigned_to,
    closed_at: null,
    custom_properties: row.properties.custom_properties,
    freshdesk_metadata: null,
    group_description: row.group_description,
    member_closed_at: null,
    override_chat_access: row.properties.override_chat_access,
    parent_community_id: null,
    snooze_metadata: null,
    zohodesk_metadata: null,
  };
}
