import type { ImportMessageItem } from '@mapi/contracts';
import type { Prisma } from '@mapi/db';
import { deliveryInfo, ftsOf } from '../ingest/ingest-rows';
import { MESSAGE_API_KEYS } from '../rows/message-api-sql';

type MessageObject = ImportMessageItem['message'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const json = (v: unknown) => (v === undefined || v === null ? null : (v as Prisma.InputJsonValue));
const orNull = <T>(v: T | null | undefined): T | null => (v === undefined ? null : v);

/** delivery_info as spec 2.1 gives it, or the one ingestion would start from at that ack. */
function deliveryOf(m: MessageObject, ack: number): Prisma.InputJsonValue {
  const d = m.delivery_info as { delivered_count?: unknown; read_count?: unknown; pending?: unknown } | null | undefined;
  const ok =
    d && typeof d === 'object' && typeof d.delivered_count === 'number' && typeof d.read_count === 'number' && Array.isArray(d.pending);
  return ok ? (d as Prisma.InputJsonValue) : deliveryInfo(ack, m.chat_id);
}

/**
 * A source's message object (spec 2.1, the inverse of mapMessage) as a stored row of the target
 * phone: every column the row keeps, by the same name. fts is computed here as ingestion does
 * (ftsOf), so search behaves alike for imported and live rows.
 */
export function importMessageRow(
  org: { org_id: string; phone_id: string; org_phone: string },
  m: MessageObject,
): Prisma.MessageCreateManyInput {
  const ack = m.ack === null || m.ack === undefined ? 0 : Number(m.ack);
  const body = orNull(m.body);
  return {
    org_id: org.org_id,
    phone_id: org.phone_id,
    chat_id: m.chat_id,
    message_id: m.message_id,
    unique_id: m.unique_id,
    org_phone: org.org_phone,
    sender_phone: m.sender_phone,
    from_me: m.from_me,
    body,
    prev_body: orNull(m.prev_body),
    message_type: m.message_type,
    timestamp: new Date(m.timestamp),
    updated_at: new Date(m.updated_at ?? m.timestamp),
    ack,
    delivery_info: deliveryOf(m, ack),
    mentioned_ids: m.mentioned_ids ?? [],
    media: json(m.media) ?? undefined,
    fts: ftsOf(body),
    broadcast: orNull(m.broadcast),
    sent_message_id: m.sent_message_id && UUID.test(m.sent_message_id) ? m.sent_message_id : null,
    author: orNull(m.author),
    broadcast_id: orNull(m.broadcast_id),
    device_type: orNull(m.device_type),
    duration: orNull(m.duration),
    flag_metadata: json(m.flag_metadata) ?? undefined,
    flag_response_time: orNull(m.flag_response_time),
    flag_status: orNull(m.flag_status),
    forwarding_score: orNull(m.forwarding_score),
    from: orNull(m.from),
    has_media: orNull(m.has_media),
    has_quoted_msg: orNull(m.has_quoted_msg),
    has_reaction: orNull(m.has_reaction),
    interactive: json(m.interactive) ?? undefined,
    invite_v4: json(m.invite_v4) ?? undefined,
    is_deleted: orNull(m.is_deleted),
    is_ephemeral: orNull(m.is_ephemeral),
    is_forwarded: orNull(m.is_forwarded),
    is_gif: orNull(m.is_gif),
    is_starred: orNull(m.is_starred),
    is_status: orNull(m.is_status),
    links: json(m.links) ?? undefined,
    location: json(m.location) ?? undefined,
    media_key: orNull(m.media_key),
    message_ticket_id: orNull(m.message_ticket_id),
    order_id: orNull(m.order_id),
    performed_by: orNull(m.performed_by),
    poll_info: json(m.poll_info) ?? undefined,
    poll_results: json(m.poll_results) ?? undefined,
    quoted_message_id: orNull(m.quoted_message_id),
    raw_data: json(m.raw_data) ?? undefined,
    to: orNull(m.to),
    token: orNull(m.token),
    vcards: json(m.vcards) ?? undefined,
  };
}

/** Every column importMessageRow fills: the message object's keys (less `id`, derived from the others) and the phone. */
export const IMPORT_COLUMNS = ['phone_id', ...MESSAGE_API_KEYS.filter((k) => k !== 'id')] as const;
