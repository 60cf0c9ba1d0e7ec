import type { IngestMessage } from '@mapi/contracts';
import type { Prisma, PrismaClient } from '@mapi/db';
import type { ObjectStorage } from '@mapi/storage';
import type { Logger } from '@mapi/platform';
import { RECEIVED_MEDIA_BUCKET, safeFileName } from '../baileys/received-media';
import type { GraphClient } from './graph-client';
import type { InboundMedia } from './inbound-mapping';

/** Attempts at a file before its message is handed on without it (never lost for a file). */
export const MEDIA_ATTEMPTS = 5;
const BATCH = 20;

export interface MediaSettings {
  storage: ObjectStorage;
  /** Public origin of media links, as the media service serves them (`<base>/app/media/<bucket>/<name>`). */
  mediaBaseUrl: string;
  maxBytes: number;
}

/**
 * Received messages with media (cloud_api_media): the webhook holds them here, durably, instead of
 * publishing them (a download must not hold Meta's callback up); the phone's session fetches each file
 * from the Graph API into the media storage (`message-media/<org_id>/<chat_id>/<wamid>/<file>`, like
 * Baileys' received media) and hands the message on with its link. After MEDIA_ATTEMPTS failures the
 * message is handed on with an empty path, as Baileys does with a file it could not fetch.
 */
export class ReceivedMediaQueue {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly media: MediaSettings | null,
    private readonly graph: GraphClient,
    private readonly logger: Logger,
  ) {}

  /** Holds a received message until its file is fetched; a repeat of the callback changes nothing. */
  async hold(phoneId: string, media: InboundMedia, message: IngestMessage): Promise<void> {
    await this.prisma.cloudApiMedia.createMany({
      data: [{ phone_id: phoneId, ...media, message: message as unknown as Prisma.InputJsonValue }],
      skipDuplicates: true,
    });
  }

  /**
   * Fetches the pending files of the phone (oldest first, a batch) and hands each message on through
   * `publish` (resolved once it is durably in the ingest stream) before marking it done. Returns how many were handed on.
   */
  async drain(
    phone: { phone_id: string; org_id: string; access_token: string },
    publish: (m: IngestMessage) => Promise<void>,
  ): Promise<number> {
    const rows = await this.prisma.cloudApiMedia.findMany({
      where: { phone_id: phone.phone_id, done_at: null },
      orderBy: { received_at: 'asc' },
      take: BATCH,
    });
    let handed = 0;
    for (const row of rows) {
      const message = row.message as unknown as IngestMessage;
      let path = '';
      let size = 0;
      try {
        ({ path, size } = await this.fetch(phone, row, message.chat_id));
      } catch (err) {
        if (row.attempts + 1 < MEDIA_ATTEMPTS) {
          await this.prisma.cloudApiMedia.updateMany({
            where: { phone_id: phone.phone_id, wamid: row.wamid },
            data: { attempts: { increment: 1 } },
          });
          this.logger.warn(
            { phone_id: phone.phone_id, wamid: row.wamid, reason: (err as Error).message },
            'cloud api: media not fetched yet',
          );
          continue;
        }
        this.logger.warn({ phone_id: phone.phone_id, wamid: row.wamid, reason: (err as Error).message }, 'cloud api: media given up');
      }
      const filename = row.filename ?? `${row.media_id}.${row.mime_type.split('/')[1]?.split(';')[0] ?? 'bin'}`;
      await publish({
        ...message,
        media: { dimensions: { ar: 0, height: 0, width: 0 }, filename, mimetype: row.mime_type, path, size, thumbnail: '' },
      });
      await this.prisma.cloudApiMedia.updateMany({ where: { phone_id: phone.phone_id, wamid: row.wamid }, data: { done_at: new Date() } });
      handed++;
    }
    return handed;
  }

  private async fetch(
    phone: { org_id: string; access_token: string },
    row: { wamid: string; media_id: string; mime_type: string; filename: string | null },
    chatId: string,
  ): Promise<{ path: string; size: number }> {
    if (!this.media) throw new Error('no media storage is configured');
    const info = await this.graph.mediaInfo(row.media_id, phone.access_token);
    const data = await this.graph.download(info.url, phone.access_token, this.media.maxBytes);
    const name = [phone.org_id, chatId, safeFileName(row.wamid), safeFileName(row.filename ?? row.media_id)].join('/');
    await this.media.storage.write({ bucket: RECEIVED_MEDIA_BUCKET, name }, data, { contentType: row.mime_type });
    const link = `${this.media.mediaBaseUrl}/app/media/${RECEIVED_MEDIA_BUCKET}/${name.split('/').map(encodeURIComponent).join('/')}`;
    return { path: link, size: data.length };
  }
}
