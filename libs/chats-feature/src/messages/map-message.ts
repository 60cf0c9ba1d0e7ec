import type { DeliveryInfo, Media, Message } from '@mapi/contracts';
import type { MessageRow } from '../rows/message-row';

/** 2024-05-01T10:00:00+00:00 (spec 2.1 `timestamp`: ISO 8601 with offset). */
export function isoSeconds(date: Date): string {
  return `${date.toISOString().slice(0, 19)}+00:00`;
}

/** 2024-05-01T10:00:00.123+00:00 (spec 2.1 `updated_at`: with offset and milliseconds). */
export function isoMillis(date: Date): string {
  return `${date.toISOString().slice(0, 23)}+00:00`;
}

const asStringArray = (value: unknown): string[] | null =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : null;

/** The one place a stored message becomes the spec's message object (2.1). */
export function mapMessage(row: MessageRow): Message {
  return {
    message_id: row.message_id,
    unique_id: row.unique_id,
    id: { from_me: row.from_me, id: row.unique_id, remote: row.chat_id, serialized: row.message_id },
    chat_id: row.chat_id,
    org_id: row.org_id,
    org_phone: row.org_phone,
    sender_phone: row.sender_phone,
    from_me: row.from_me,
    body: row.body,
    prev_body: row.prev_body,
    message_type: row.message_type,
    timestamp: isoSeconds(row.timestamp),
    updated_at: isoMillis(row.updated_at),
    ack: String(row.ack),
    delivery_info: row.delivery_info as DeliveryInfo,
    mentioned_ids: row.mentioned_ids,
    media: (row.media as Media | null) ?? null,
    fts: row.fts,
    broadcast: row.broadcast,
    sent_message_id: row.sent_message_id,
    author: row.author,
    broadcast_id: row.broadcast_id,
    device_type: row.device_type,
    duration: row.duration,
    flag_metadata: row.flag_metadata,
    flag_response_time: row.flag_response_time,
    flag_status: row.flag_status,
    forwarding_score: row.forwarding_score,
    from: row.from,
    has_media: row.has_media,
    has_quoted_msg: row.has_quoted_msg,
    has_reaction: row.has_reaction,
    interactive: row.interactive,
    invite_v4: row.invite_v4,
    is_deleted: row.is_deleted,
    is_ephemeral: row.is_ephemeral,
    is_forwarded: row.is_forwarded,
    is_gif: row.is_gif,
    is_starred: row.is_starred,
    is_status: row.is_status,
    links: row.links,
    location: row.location,
    media_key: row.media_key,
    message_ticket_id: row.message_ticket_id,
    order_id: row.order_id,
    performed_by: row.performed_by,
    poll_info: row.poll_info,
    poll_results: row.poll_results,
    quoted_message_id: row.quoted_message_id,
    raw_data: row.raw_data,
    to: row.to,
    token: row.token,
    vcards: asStringArray(row.vcards),
  };
}
