import { splitMessageId } from '@mapi/contracts';
import type { AnyMessageContent, WAMessage } from 'baileys';
import type { OutgoingContent } from '../connector/phone-connector';
import { toJid } from './baileys-mapping';

export class OutgoingMediaError extends Error {}

/** Reads a send's media: from base64 `filedata`, or downloaded from `url`; refused above `maxBytes`. */
export async function loadOutgoingMedia(
  media: NonNullable<OutgoingContent['media']>,
  maxBytes: number,
  fetchImpl: typeof fetch = fetch,
): Promise<Buffer> {
  if (media.filedata) {
    const data = Buffer.from(media.filedata.replace(/^data:[^,]*,/, ''), 'base64');
    if (!data.length) throw new OutgoingMediaError('media filedata is empty or not base64');
    if (data.length > maxBytes) throw new OutgoingMediaError(`media is larger than ${maxBytes} bytes`);
    return data;
  }
  if (!media.url) throw new OutgoingMediaError('media needs a url or filedata');
  const url = new URL(media.url);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new OutgoingMediaError('media url must be http(s)');
  const res = await fetchImpl(url, { signal: AbortSignal.timeout(30_000), redirect: 'follow' });
  if (!res.ok || !res.body) throw new OutgoingMediaError(`media url answered ${res.status}`);
  if (Number(res.headers.get('content-length') ?? 0) > maxBytes) throw new OutgoingMediaError(`media is larger than ${maxBytes} bytes`);
  // Counted while reading: the Content-Length may be absent or wrong.
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.length;
    if (size > maxBytes) throw new OutgoingMediaError(`media is larger than ${maxBytes} bytes`);
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}

/** Which kind of media message: the given `type` when it names one, else from the mimetype. */
export function mediaKindOf(media: { type?: string; mimetype: string }): 'image' | 'video' | 'audio' | 'document' | 'sticker' {
  const t = media.type?.toLowerCase();
  if (t === 'image' || t === 'video' || t === 'audio' || t === 'document' || t === 'sticker') return t;
  if (t === 'ptt' || t === 'voice') return 'audio';
  const top = media.mimetype.split('/')[0];
  if (media.mimetype === 'image/webp') return 'sticker';
  return top === 'image' || top === 'video' || top === 'audio' ? top : 'document';
}

/** The library's content for a send (text, media with caption, poll). */
export async function toMessageContent(
  content: OutgoingContent,
  loadMedia: (m: NonNullable<OutgoingContent['media']>) => Promise<Buffer>,
): Promise<AnyMessageContent> {
  if (content.poll) {
    const { name, options, allow_multiple } = content.poll;
    return { poll: { name, values: options, selectableCount: allow_multiple ? 0 : 1 } };
  }
  if (content.media) {
    const data = await loadMedia(content.media);
    const { mimetype, filename } = content.media;
    const caption = content.text || undefined;
    switch (mediaKindOf(content.media)) {
      case 'image':
        return { image: data, caption, mimetype };
      case 'video':
        return { video: data, caption, mimetype };
      case 'audio':
        return { audio: data, mimetype, ptt: content.media.type === 'ptt' || content.media.type === 'voice' };
      case 'sticker':
        return { sticker: data, mimetype };
      default:
        return { document: data, mimetype, fileName: filename, caption };
    }
  }
  if (!content.text) throw new OutgoingMediaError('a message needs text, media or a poll');
  // No link preview unless asked: building one fetches the link from this server.
  return { text: content.text, linkPreview: content.hide_url_preview === false ? undefined : null };
}

/**
 * The message a reply quotes. `reply_to` is a message_id (`<from_me>_<chat_id>_<unique_id>`) or a
 * bare unique_id; the library needs only the key to thread the reply (the recent message is used when
 * this session still holds it, for the quoted preview).
 */
export function quotedFor(chatId: string, replyTo: string, recent: (id: string) => WAMessage | undefined): WAMessage {
  const m = splitMessageId(replyTo);
  const uniqueId = m ? m.unique_id : replyTo;
  const fromMe = m ? m.from_me : false;
  return recent(uniqueId) ?? { key: { remoteJid: toJid(chatId), id: uniqueId, fromMe }, message: { conversation: '' } };
}
