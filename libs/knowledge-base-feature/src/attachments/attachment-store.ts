import { randomUUID } from 'node:crypto';
import type { KbAttachment } from '@mapi/contracts';
import { MEDIA_PATH, mediaLink, segmentProblem, type ObjectKey, type ObjectStorage } from '@mapi/storage';

export type StoredLink = KbAttachment['link'];
export type StoredKind = 'attachment' | 'document';

/** Where the knowledge base keeps files (MediaAttachmentStore; tests may fake it). */
export interface AttachmentStore {
  /** Stores the bytes and answers the link the API shows; `id` groups the file (an FAQ's, a document's). */
  put(kind: StoredKind, orgId: string, filename: string, bytes: Buffer, mimetype: string, id?: string): Promise<StoredLink>;
  /** Removes files this store holds for the organization; links it does not own are ignored. */
  removeLinks(orgId: string, links: StoredLink[]): Promise<void>;
}

/** The media bucket of knowledge-base files (one of the media app's MEDIA_BUCKETS). */
export const KB_BUCKET = 'kb-attachments';
const ID = /^[0-9a-f-]{36}$/;

/** A file name safe as one key segment: no separators, no dot-only names, at most 200 characters. */
export function safeFileName(name: string): string {
  const base = name
    .replace(/[/\\\0]/g, '_')
    .replace(/^\.+$/, '_')
    .trim();
  const cut = (base || 'file').slice(0, 200);
  return segmentProblem(cut) ? 'file' : cut;
}

/**
 * Files in the media storage (libs/storage), in the bucket `kb-attachments`:
 * - FAQ attachments: `kb-attachments/<org_id>/<uuid>/<filename>`,
 * - documents: `kb-attachments/<org_id>/documents/<document_id>/<filename>`,
 * linked as service media links `{MEDIA_BASE_URL}/app/media/kb-attachments/<org_id>/...` (each segment
 * URL-encoded, no token): apps/media serves them, and POST /media/migrate-url turns such a link into
 * a signed one (docs/services/media.md).
 */
export class MediaAttachmentStore implements AttachmentStore {
  private readonly prefix: string;

  constructor(
    private readonly storage: ObjectStorage,
    private readonly mediaBaseUrl: string,
  ) {
    this.prefix = `${mediaBaseUrl.replace(/\/+$/, '')}${MEDIA_PATH}`;
  }

  async put(kind: StoredKind, orgId: string, filename: string, bytes: Buffer, mimetype: string, id = randomUUID()): Promise<StoredLink> {
    const name = safeFileName(filename);
    const key: ObjectKey = { bucket: KB_BUCKET, name: [orgId, ...(kind === 'document' ? ['documents'] : []), id, name].join('/') };
    await this.storage.write(key, bytes, { contentType: mimetype });
    return { url: this.link(key), type: mimetype, name };
  }

  async removeLinks(orgId: string, links: StoredLink[]): Promise<void> {
    for (const link of links) {
      const key = this.keyOf(link.url);
      if (key && key.name.startsWith(`${orgId}/`)) await this.storage.delete(key);
    }
  }

  /** The stored object a link of this store names (only `kb-attachments/<org>/[documents/]<uuid>/<file>`), or null. */
  keyOf(url: string): ObjectKey | null {
    if (!url.startsWith(this.prefix)) return null;
    let segments: string[];
    try {
      segments = url.slice(this.prefix.length).split('?')[0].split('/').map(decodeURIComponent);
    } catch {
      return null;
    }
    const [bucket, ...name] = segments;
    const shape = name.length === 3 ? ID.test(name[1]) : name.length === 4 && name[1] === 'documents' && ID.test(name[2]);
    if (bucket !== KB_BUCKET || !shape || name.some((s) => segmentProblem(s))) return null;
    return { bucket, name: name.join('/') };
  }

  private link(key: ObjectKey): string {
    return mediaLink(this.mediaBaseUrl, key);
  }
}
