import { createHash } from 'node:crypto';
import type { Prisma } from '@mapi/db';
import type { DemoChatScript, DemoImage, ScriptLine } from './demo-script';

export interface DemoPhone {
  phone_id: string;
  org_phone: string;
}

type DeliveryInfo = {
  delivered_count: number;
  read_count: number;
  pending: string[];
  delivered?: Record<string, number>;
  read?: Record<string, number>;
};

const MINUTE = 60_000;
const contact = (digits: string) => `${digits}@c.us`;

/** Lower-cased words of the body: the full-text-search token string (null when there are none). */
export function ftsOf(body: string | null): string | null {
  const words = body?.toLowerCase().match(/[\p{L}\p{N}]+(?:['’][\p{L}\p{N}]+)*/gu);
  return words && words.length > 0 ? words.join(' ') : null;
}

/**
 * `3EB0` + 16 upper-case hex, derived from where the message sits in the demo, so seeding the
 * same organization again yields the same ids (and inserts nothing new).
 */
export function demoUniqueId(orgId: string, phoneId: string, chatId: string, index: number): string {
  const digest = createHash('sha256').update(`${orgId}|${phoneId}|${chatId}|${index}`).digest('hex');
  return `3EB0${digest.slice(0, 16).toUpperCase()}`;
}

/** The stored rows of one demo chat as its phone saw it, in the shape the chats service reads. */
export function buildDemoMessages(orgId: string, phone: DemoPhone, chat: DemoChatScript, now: Date): Prisma.MessageUncheckedCreateInput[] {
  const rows: Prisma.MessageUncheckedCreateInput[] = [];
  const lastOutgoing = findLastOutgoing(chat);
  let index = 0;
  for (const session of chat.sessions) {
    // Whole seconds, as the network's timestamps are.
    let at = Math.floor(now.getTime() / 1000) * 1000 - session.hoursAgo * 60 * MINUTE;
    for (const line of session.lines) {
      const uniqueId = demoUniqueId(orgId, phone.phone_id, chat.chat_id, index);
      // Outgoing messages have been read, except the newest one, which is only delivered.
      const ack = line.from === 'me' ? (index === lastOutgoing ? 2 : 3) : 0;
      rows.push(messageRow(orgId, phone, chat, line, { uniqueId, timestamp: new Date(at), ack, index }));
      at += (1 + ((index * 7) % 5)) * MINUTE + ((index * 13) % 60) * 1000;
      index++;
    }
  }
  return rows;
}

interface Placement {
  uniqueId: string;
  timestamp: Date;
  ack: number;
  index: number;
}

function messageRow(
  orgId: string,
  phone: DemoPhone,
  chat: DemoChatScript,
  line: ScriptLine,
  { uniqueId, timestamp, ack, index }: Placement,
): Prisma.MessageUncheckedCreateInput {
  const fromMe = line.from === 'me';
  const isGroup = chat.chat_type === 'group';
  const sender = fromMe ? phone.org_phone : contact(line.from);
  const messageId = `${fromMe}_${chat.chat_id}_${uniqueId}`;
  const body = line.text ?? null;
  const delivery = fromMe ? deliveryInfo(chat, ack, timestamp.getTime(), index) : { delivered_count: 0, read_count: 0, pending: [] };
  return {
    org_id: orgId,
    phone_id: phone.phone_id,
    chat_id: chat.chat_id,
    message_id: messageId,
    unique_id: uniqueId,
    org_phone: phone.org_phone,
    sender_phone: sender,
    from_me: fromMe,
    body,
    message_type: line.image ? 'image' : 'chat',
    timestamp,
    updated_at: new Date(lastChange(timestamp.getTime(), delivery)),
    ack,
    delivery_info: delivery,
    mentioned_ids: (line.mentions ?? []).map(contact),
    media: line.image ? (mediaOf(orgId, chat.chat_id, messageId, line.image) as Prisma.InputJsonObject) : undefined,
    fts: ftsOf(body),
    broadcast: false,
    author: isGroup ? sender : null,
    from: fromMe ? phone.org_phone : chat.chat_id,
    to: fromMe ? chat.chat_id : phone.org_phone,
    has_media: line.image !== undefined,
    has_quoted_msg: false,
    is_forwarded: false,
    is_status: false,
  };
}

/** Delivery of an outgoing message: counts, plus per-contact epoch-ms maps in groups. */
function deliveryInfo(chat: DemoChatScript, ack: number, sentAt: number, index: number): DeliveryInfo {
  const isGroup = chat.chat_type === 'group';
  const delivered = ack >= 2 ? chat.members : [];
  // A group message stays at ack 2 until every member has read it; one has.
  const read = ack >= 3 ? chat.members : isGroup ? delivered.slice(0, 1) : [];
  const info: DeliveryInfo = { delivered_count: delivered.length, read_count: read.length, pending: [] };
  if (!isGroup) return info;
  info.delivered = Object.fromEntries(delivered.map((r, i) => [contact(r), sentAt + 2_000 + i * 1_500 + index * 100]));
  info.read = Object.fromEntries(read.map((r, i) => [contact(r), sentAt + (2 + i * 3 + (index % 4)) * MINUTE]));
  return info;
}

function lastChange(sentAt: number, delivery: DeliveryInfo): number {
  return Math.max(sentAt, ...Object.values(delivery.delivered ?? {}), ...Object.values(delivery.read ?? {}));
}

function mediaOf(orgId: string, chatId: string, messageId: string, image: DemoImage) {
  const folder = `/storage/v1/object/public/message-media/${orgId}/${chatId}/${messageId}`;
  return {
    dimensions: { ar: Math.round((image.width / image.height) * 10_000) / 10_000, height: image.height, width: image.width },
    filename: image.filename,
    mimetype: image.mimetype,
    path: `${folder}/${image.filename}`,
    size: image.size,
    thumbnail: `${folder}/thumbnail.jpg`,
  };
}

function findLastOutgoing(chat: DemoChatScript): number {
  const lines = chat.sessions.flatMap((s) => s.lines);
  for (let i = lines.length - 1; i >= 0; i--) if (lines[i].from === 'me') return i;
  return -1;
}
