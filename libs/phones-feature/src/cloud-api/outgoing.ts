import { splitMessageId, type OutgoingContent } from '@mapi/contracts';
import { SendRefused } from './graph-errors';

/** The recipient of a chat: the Cloud API takes the number (wa_id), and individual chats only. */
export function recipientOf(chatId: string): string {
  const m = /^(\d{5,20})(@c\.us|@s\.whatsapp\.net)?$/.exec(chatId);
  if (!m) throw new SendRefused(`The WhatsApp Cloud API sends to individual chats only, not ${chatId}`);
  return m[1];
}

/**
 * `reply_to` as the API takes it: a message_id (`<from_me>_<chat_id>_<unique_id>`) or a bare unique_id.
 * (splitMessageId: Meta's ids, wamid.…, may contain `_`).
 */
export function replyTarget(replyTo: string): { unique_id: string; from_me: boolean } {
  const m = splitMessageId(replyTo);
  return m ? { unique_id: m.unique_id, from_me: m.from_me } : { unique_id: replyTo, from_me: false };
}

const MEDIA_KIND = (mimetype: string, type?: string) => {
  if (type === 'sticker' || mimetype === 'image/webp') return 'sticker';
  if (mimetype.startsWith('image/')) return 'image';
  if (mimetype.startsWith('video/')) return 'video';
  if (mimetype.startsWith('audio/')) return 'audio';
  return 'document';
};

/** The message type this content has in the chats store (as the other connectors name it). */
export function storedTypeOf(content: OutgoingContent): string {
  if (content.template) return 'template';
  if (!content.media) return 'chat';
  const kind = MEDIA_KIND(content.media.mimetype, content.media.type);
  return kind === 'audio' ? 'audio' : kind;
}

/**
 * The Graph API's message body (without messaging_product) for a send: text, a template, or media by
 * link (or by the id of a file uploaded first, `uploadedId`, for `filedata`) with the text as caption;
 * `context` when it replies (Meta's id of the quoted message). Polls are refused: the Cloud API has none.
 */
export function graphMessageOf(
  to: string,
  content: OutgoingContent,
  quotedWamid: string | null,
  uploadedId: string | null = null,
): Record<string, unknown> {
  const context = quotedWamid ? { context: { message_id: quotedWamid } } : {};
  const base = { recipient_type: 'individual', to, ...context };
  if (content.template) {
    const { name, language, parameters } = content.template;
    const components = parameters?.length ? [{ type: 'body', parameters: parameters.map((text) => ({ type: 'text', text })) }] : [];
    return { ...base, type: 'template', template: { name, language: { code: language }, ...(components.length ? { components } : {}) } };
  }
  if (content.poll) throw new SendRefused('The WhatsApp Cloud API has no polls');
  if (content.media) {
    const source = content.media.url ? { link: content.media.url } : uploadedId ? { id: uploadedId } : null;
    if (!source) throw new SendRefused('The media has neither a url nor an uploaded file');
    const kind = MEDIA_KIND(content.media.mimetype, content.media.type);
    const caption = content.text && kind !== 'audio' && kind !== 'sticker' ? { caption: content.text } : {};
    const filename = kind === 'document' ? { filename: content.media.filename } : {};
    return { ...base, type: kind, [kind]: { ...source, ...caption, ...filename } };
  }
  if (!content.text) throw new SendRefused('Nothing to send: the message has no text');
  return { ...base, type: 'text', text: { body: content.text, preview_url: content.hide_url_preview !== true } };
}
