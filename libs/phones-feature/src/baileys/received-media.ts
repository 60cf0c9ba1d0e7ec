import { downloadMediaMessage, type WAMessage } from 'baileys';
import type { ObjectStorage } from '@mapi/storage';
import type { Logger } from 'pino';
import { mediaOf } from './baileys-mapping';

export const RECEIVED_MEDIA_BUCKET = 'message-media';
/** A download (with the phone's re-upload of an expired file) that takes longer is given up. */
const DOWNLOAD_TIMEOUT_MS = 120_000;

/** What became of a message's media: `path` is the service link ('' unless stored). */
export type MediaOutcome = { outcome: 'stored'; path: string } | { outcome: 'none' | 'too-large' | 'failed'; path: '' };

/**
 * Received media: downloaded (decrypted) through the library, written to the media storage under
 * `message-media/<org_id>/<chat_id>/<unique_id>/<file>`, linked as the media service serves it.
 * Links carry no token: the media service serves such a link only once the file is made public, so
 * clients get a working (private, signed) link with POST /v1/media/migrate-url.
 */
export class ReceivedMediaStore {
  constructor(
    private readonly storage: ObjectStorage,
    private readonly mediaBaseUrl: string,
    private readonly maxBytes: number,
    private readonly logger: Logger,
  ) {}

  link(bucket: string, name: string): string {
    return `${this.mediaBaseUrl}/app/media/${bucket}/${name.split('/').map(encodeURIComponent).join('/')}`;
  }

  /** Stores the message's file; '' path (with the reason) when it has none, is too large, or could not be downloaded. */
  async store(msg: WAMessage, orgId: string, chatId: string, reupload: (m: WAMessage) => Promise<WAMessage>): Promise<MediaOutcome> {
    const meta = mediaOf(msg, '');
    if (!meta || !msg.key.id) return { outcome: 'none', path: '' };
    if (meta.size > this.maxBytes) {
      this.logger.info({ unique_id: msg.key.id, size: meta.size }, 'received media larger than BAILEYS_MEDIA_MAX_BYTES: not stored');
      return { outcome: 'too-large', path: '' };
    }
    try {
      const data = await downloadMediaMessage(
        msg,
        'buffer',
        { options: { timeout: DOWNLOAD_TIMEOUT_MS } },
        { reuploadRequest: reupload, logger: this.logger as never },
      );
      if (data.length > this.maxBytes) {
        this.logger.info({ unique_id: msg.key.id, size: data.length }, 'received media larger than BAILEYS_MEDIA_MAX_BYTES: not stored');
        return { outcome: 'too-large', path: '' };
      }
      const name = [orgId, chatId, msg.key.id, safeFileName(meta.filename)].join('/');
      await this.storage.write({ bucket: RECEIVED_MEDIA_BUCKET, name }, data, { contentType: meta.mimetype });
      return { outcome: 'stored', path: this.link(RECEIVED_MEDIA_BUCKET, name) };
    } catch (err) {
      // The message is still handed on (with media metadata and an empty path): losing it would be worse.
      this.logger.warn({ err, unique_id: msg.key.id }, 'received media could not be downloaded');
      return { outcome: 'failed', path: '' };
    }
  }
}

/** A file name that is one safe key segment. */
export function safeFileName(name: string): string {
  const cleaned = name
    .replace(/[/\\\0]/g, '_')
    .replace(/^\.+$/, '_')
    .slice(0, 200);
  return cleaned || 'file';
}
