import type { Media } from '@mapi/contracts';
import type { OutgoingContent } from '../connector/phone-connector';
import { loadOutgoingMedia, OutgoingMediaError } from '../baileys/outgoing-content';
import { RECEIVED_MEDIA_BUCKET, safeFileName } from '../baileys/received-media';
import { SendRefused } from '../cloud-api/graph-errors';
import type { MediaSettings } from '../cloud-api/received-media';

/**
 * A file a sandbox phone sends (`media.filedata`), kept as a real network keeps it: written to the media
 * storage where received Baileys and Cloud API media go (`message-media/<org_id>/<chat_id>/<unique_id>/<file>`),
 * so the stored message's `media.path` is a media link the media service serves (POST /v1/media/migrate-url).
 * Null (the message is stored without media, as before) when there is no storage or the file is given by
 * `url` only: the sandbox fetches nothing from the internet. A file that is empty, not base64 or larger
 * than the limit (BAILEYS_MEDIA_MAX_BYTES, as for Baileys) is refused for good (the job fails at once).
 */
export async function storeSentMedia(
  settings: MediaSettings | null,
  at: { org_id: string; chat_id: string; unique_id: string },
  file: NonNullable<OutgoingContent['media']>,
): Promise<Media | null> {
  if (!settings || !file.filedata) return null;
  let data: Buffer;
  try {
    data = await loadOutgoingMedia({ ...file, url: undefined }, settings.maxBytes);
  } catch (err) {
    throw err instanceof OutgoingMediaError ? new SendRefused(err.message) : err;
  }
  const name = [at.org_id, at.chat_id, safeFileName(at.unique_id), safeFileName(file.filename)].join('/');
  await settings.storage.write({ bucket: RECEIVED_MEDIA_BUCKET, name }, data, { contentType: file.mimetype });
  const { width, height } = imageSize(data);
  return {
    dimensions: { ar: width && height ? width / height : 0, height, width },
    filename: file.filename,
    mimetype: file.mimetype,
    path: `${settings.mediaBaseUrl}/app/media/${RECEIVED_MEDIA_BUCKET}/${name.split('/').map(encodeURIComponent).join('/')}`,
    size: data.length,
    thumbnail: '',
  };
}

/**
 * An image's pixel size read from its header (PNG, GIF, JPEG: what the console's pictures are), so the
 * console reserves its box before it loads, as for a Baileys image; 0 × 0 for anything else.
 */
export function imageSize(data: Buffer): { width: number; height: number } {
  if (data.length >= 24 && data.readUInt32BE(0) === 0x89504e47 && data.toString('latin1', 12, 16) === 'IHDR')
    return { width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
  if (data.length >= 10 && data.toString('latin1', 0, 4) === 'GIF8') return { width: data.readUInt16LE(6), height: data.readUInt16LE(8) };
  if (data.length >= 4 && data[0] === 0xff && data[1] === 0xd8) {
    // JPEG: the segments up to a start of frame (SOF0..SOF15 but DHT C4, JPG C8, DAC CC), whose header holds the size.
    for (let i = 2; i + 9 < data.length;) {
      if (data[i] !== 0xff) break;
      const marker = data[i + 1];
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)
        return { width: data.readUInt16BE(i + 7), height: data.readUInt16BE(i + 5) };
      i += 2 + data.readUInt16BE(i + 2);
    }
  }
  return { width: 0, height: 0 };
}
