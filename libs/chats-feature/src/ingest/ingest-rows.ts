import { isGroupChatId, type IngestMessage } from '@mapi/contracts';
import type { Prisma } from '@mapi/db';

/** A connector's message as a stored row (spec 2.1 ids; fts from the body). */
export function ingestRow(org: { org_id: string; phone_id: string; org_phone: string }, m: IngestMessage): Prisma.MessageCreateManyInput {
  const ack = m.ack;
  return {
    org_id: org.org_id,
    phone_id: org.phone_id,
    chat_id: m.chat_id,
    message_id: `${m.from_me}_${m.chat_id}_${m.unique_id}`,
    unique_id: m.unique_id,
    org_phone: org.org_phone,
    sender_phone: m.sender_phone,
    from_me: m.from_me,
    body: m.body,
    message_type: m.message_type,
    timestamp: new Date(m.timestamp),
    ack,
    delivery_info: deliveryInfo(ack, m.chat_id),
    mentioned_ids: m.mentioned_ids ?? [],
    media: (m.media ?? undefined) as Prisma.InputJsonValue | undefined,
    fts: ftsOf(m.body),
    author: m.author ?? (isGroupChatId(m.chat_id) ? m.sender_phone : null),
    has_media: m.media ? true : null,
    is_forwarded: m.is_forwarded ?? null,
    quoted_message_id: m.quoted_message_id ?? null,
    // as has_media: true when the message quotes another, else null (the public client's Message)
    has_quoted_msg: m.quoted_message_id ? true : null,
    sent_message_id: m.sent_message_id ?? null,
    // who sent it through this service (a member's email, a token's id), as the phone's session stamped it
    performed_by: m.performed_by ?? null,
    from: m.from_me ? org.org_phone : m.sender_phone,
    to: m.from_me ? m.chat_id : org.org_phone,
  };
}

/** Lower-cased word tokens of the body, for full-text search. */
export function ftsOf(body: string | null): string | null {
  if (!body) return null;
  const words = body.toLowerCase().match(/[\p{L}\p{N}]+/gu);
  return words ? words.join(' ') : null;
}

/** delivery_info for a 1:1 message at an ack (groups gain per-participant maps from receipts). */
export function deliveryInfo(ack: number, chatId: string): Prisma.InputJsonValue {
  const single = !isGroupChatId(chatId);
  return { delivered_count: single && ack >= 2 ? 1 : 0, read_count: single && ack >= 3 ? 1 : 0, pending: [] };
}

/** Acks only move up; -1 (failed) only replaces an ack below delivered. */
export function nextAck(current: number, incoming: number): number | null {
  if (incoming === -1) return current < 2 && current !== -1 ? -1 : null;
  return incoming > current ? incoming : null;
}
