import { downloadMediaMessage, type WAMessage } from 'baileys';
import type { ObjectStorage } from '@mapi/storage';
import type { Logger } from 'pino';
import { mediaOf } from './baileys-mapping';

export const RECEIVED_MEDIA_BUCKET = 'message-media';

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

  /** The service link of the stored file, or '' when it is too large or could not be downloaded. */
  async store(msg: WAMessage, orgId: string, chatId: string, reupload: (m: WAMessage) => Promise<WAMessage>): Promise<string> {
    const meta = mediaOf(msg, '');
    if (!meta || !msg.key.id) return '';
    if (meta.size > this.maxBytes) {
      this.logger.info({ unique_id: msg.key.id, size: meta.size }, 'received media larger than BAILEYS_MEDIA_MAX_BYTES: not stored');
      return '';
    }
    try {
      const data = await downloadMediaMessage(msg, 'buffer', {}, { reuploadRequest: reupload, logger: this.logger as never });
      if (data.length > this.maxBytes) return '';
      const name = [orgId, chatId, msg.key.id, safeFileName(meta.filename)].join('/');
      await this.storage.write({ bucket: RECEIVED_MEDIA_BUCKET, name }, data, { contentType: meta.mimetype });
      return this.link(RECEIVED_MEDIA_BUCKET, name);
    } catch (err) {
      // The message is still handed on (with media metadata and an empty path): losing it would be worse.
      this.logger.warn({ err, unique_id: msg.key.id }, 'received media could not be downloaded');
      return '';
    }
  }
}

/** A file name that is one safe key segment. */
export function safeFileName(name: string): string {
  const cleaned = name.replace(/[/\\\0]/g, '_').replace(/^\.+$/, '_').slice(0, 200);
  return cleaned || 'file';
}
