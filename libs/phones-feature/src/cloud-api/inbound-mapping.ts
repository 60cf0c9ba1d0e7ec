import type { IngestMessage } from '@mapi/contracts';

/**
 * Meta's webhook payload (developers.facebook.com/docs/whatsapp/cloud-api/webhooks/components) →
 * what the phone saw. Pure: wamids of the phone's own messages (statuses, reaction targets, quoted
 * messages) are translated to the messages' unique_ids afterwards, by the webhook.
 */
type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const contactId = (waId: string) => `${waId.replace(/\D/g, '')}@c.us`;
const iso = (seconds: unknown) => {
  const n = Number(seconds);
  return new Date(Number.isFinite(n) && n > 0 ? n * 1000 : Date.now()).toISOString();
};

export interface InboundReaction {
  chat_id: string;
  /** Meta's id of the message reacted to */
  target_wamid: string;
  reaction: { reaction_id: string; sender_phone: string; reaction: string; timestamp: string };
}

export interface InboundStatus {
  wamid: string;
  chat_id: string;
  status: 'sent' | 'delivered' | 'read' | 'failed';
  ack: number;
  at: number;
  errors: { code: number | null; title: string | null; message: string | null; details: string | null }[];
}

export interface InboundMedia {
  wamid: string;
  media_id: string;
  mime_type: string;
  sha256: string | null;
  /** a document's file name */
  filename: string | null;
}

export interface MappedCallback {
  /** Received messages; `quoted_message_id` is still Meta's id (translated by the webhook). */
  messages: IngestMessage[];
  reactions: InboundReaction[];
  statuses: InboundStatus[];
  media: InboundMedia[];
  /** Changes left out: another number's, or a field other than `messages`. */
  skipped: number;
}

/** Status → the ack scale (-1 failed, 1 server, 2 delivered, 3 read). */
export const ACK_OF_STATUS: Record<InboundStatus['status'], number> = { sent: 1, delivered: 2, read: 3, failed: -1 };

const MEDIA_TYPES = new Set(['image', 'audio', 'video', 'document', 'sticker']);

function typeAndBody(m: Obj): { message_type: string; body: string | null } {
  const type = str(m.type) ?? 'unknown';
  const content = obj(m[type]);
  switch (type) {
    case 'text':
      return { message_type: 'chat', body: str(content.body) };
    case 'audio':
      return { message_type: content.voice === true ? 'ptt' : 'audio', body: null };
    case 'image':
    case 'video':
    case 'document':
    case 'sticker':
      return { message_type: type, body: str(content.caption) };
    case 'location': {
      const place = [str(content.name), str(content.address)].filter(Boolean).join(', ');
      const at = `${Number(content.latitude)},${Number(content.longitude)}`;
      return { message_type: 'location', body: place ? `${place} (${at})` : at };
    }
    case 'contacts': {
      const names = arr(m.contacts).map((c) => str(obj(obj(c).name).formatted_name) ?? '');
      return { message_type: names.length > 1 ? 'multi_vcard' : 'vcard', body: names.filter(Boolean).join(', ') || null };
    }
    case 'interactive': {
      const reply = obj(content.button_reply ?? content.list_reply);
      return { message_type: content.type === 'list_reply' ? 'list_response' : 'buttons_response', body: str(reply.title) };
    }
    case 'button':
      return { message_type: 'buttons_response', body: str(content.text) ?? str(content.payload) };
    default:
      return { message_type: 'unknown', body: null };
  }
}

/** One callback's changes for the number `phoneNumberId`. */
export function mapCallback(payload: unknown, phoneNumberId: string): MappedCallback {
  const out: MappedCallback = { messages: [], reactions: [], statuses: [], media: [], skipped: 0 };
  for (const entry of arr(obj(payload).entry)) {
    for (const change of arr(obj(entry).changes)) {
      const value = obj(obj(change).value);
      if (obj(change).field !== 'messages' || str(obj(value.metadata).phone_number_id) !== phoneNumberId) {
        out.skipped++;
        continue;
      }
      const names = new Map(arr(value.contacts).map((c) => [str(obj(c).wa_id) ?? '', str(obj(obj(c).profile).name)]));
      for (const raw of arr(value.messages)) mapMessage(obj(raw), names, out);
      for (const raw of arr(value.statuses)) {
        const s = obj(raw);
        const status = str(s.status);
        const wamid = str(s.id);
        const to = str(s.recipient_id);
        if (!wamid || !to || !status || !(status in ACK_OF_STATUS)) continue;
        out.statuses.push({
          wamid,
          chat_id: contactId(to),
          status: status as InboundStatus['status'],
          ack: ACK_OF_STATUS[status as InboundStatus['status']],
          at: Number(s.timestamp) * 1000 || Date.now(),
          errors: arr(s.errors).map((e) => {
            const o = obj(e);
            return {
              code: typeof o.code === 'number' ? o.code : null,
              title: str(o.title),
              message: str(o.message),
              details: str(obj(o.error_data).details),
            };
          }),
        });
      }
    }
  }
  return out;
}

function mapMessage(m: Obj, names: Map<string, string | null>, out: MappedCallback): void {
  const from = str(m.from);
  const id = str(m.id);
  if (!from || !id) return;
  const chat = contactId(from);
  if (m.type === 'reaction') {
    const r = obj(m.reaction);
    const target = str(r.message_id);
    if (!target) return;
    // no emoji: the reaction was taken back
    out.reactions.push({
      chat_id: chat,
      target_wamid: target,
      reaction: { reaction_id: id, sender_phone: chat, reaction: str(r.emoji) ?? '', timestamp: iso(m.timestamp) },
    });
    return;
  }
  const { message_type, body } = typeAndBody(m);
  const type = str(m.type) ?? '';
  if (MEDIA_TYPES.has(type)) {
    const media = obj(m[type]);
    const mediaId = str(media.id);
    if (mediaId)
      out.media.push({
        wamid: id,
        media_id: mediaId,
        mime_type: str(media.mime_type) ?? 'application/octet-stream',
        sha256: str(media.sha256),
        filename: str(media.filename),
      });
  }
  const context = obj(m.context);
  out.messages.push({
    chat_id: chat,
    unique_id: id,
    from_me: false,
    sender_phone: chat,
    sender_name: names.get(from) ?? null,
    body,
    message_type,
    timestamp: iso(m.timestamp),
    ack: 1,
    media: null,
    author: null,
    is_forwarded: context.forwarded === true || context.frequently_forwarded === true ? true : null,
    quoted_message_id: str(context.id),
  });
}
