import { randomUUID } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { KbAttachment } from '@mapi/contracts';

export type StoredLink = KbAttachment['link'];

/**
 * Where the knowledge base keeps files. A small interface of its own until the shared media
 * storage (libs/storage) lands; then an adapter to it replaces LocalAttachmentStore.
 */
export interface AttachmentStore {
  /** Stores the bytes under `<area>/<org_id>/<id>/<filename>`; answers the link the API shows. */
  put(area: 'kb-attachments' | 'kb-documents', orgId: string, filename: string, bytes: Buffer, mimetype: string, id?: string): Promise<StoredLink>;
  /** Removes files this store holds for the organization; links it does not own are ignored. */
  removeLinks(orgId: string, links: StoredLink[]): Promise<void>;
}

/** A file name safe as one path segment: no separators, no dot-only names, at most 200 characters. */
export function safeFileName(name: string): string {
  const base = name.replace(/[/\\\0]/g, '_').replace(/^\.+$/, '_').trim();
  return (base || 'file').slice(0, 200);
}

/**
 * Files on the local disk under `rootDir`, linked as
 * `{mediaBaseUrl}/app/media/<area>/<org_id>/<id>/<filename>` (segments URL-encoded), the media URL form
 * of spec 4.8. Serving those URLs is the media service's job.
 */
export class LocalAttachmentStore implements AttachmentStore {
  constructor(
    private readonly rootDir: string,
    private readonly mediaBaseUrl: string,
  ) {}

  async put(area: 'kb-attachments' | 'kb-documents', orgId: string, filename: string, bytes: Buffer, mimetype: string, id = randomUUID()): Promise<StoredLink> {
    const name = safeFileName(filename);
    const dir = join(this.rootDir, area, orgId, id);
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, name), bytes);
    const path = [area, orgId, id, name].map(encodeURIComponent).join('/');
    return { url: `${this.mediaBaseUrl.replace(/\/+$/, '')}/app/media/${path}`, type: mimetype, name };
  }

  async removeLinks(orgId: string, links: StoredLink[]): Promise<void> {
    const prefix = `${this.mediaBaseUrl.replace(/\/+$/, '')}/app/media/`;
    for (const link of links) {
      if (!link.url.startsWith(prefix)) continue;
      const [area, org, id] = link.url.slice(prefix.length).split('/').map(decodeURIComponent);
      if ((area !== 'kb-attachments' && area !== 'kb-documents') || org !== orgId || !/^[0-9a-f-]{36}$/.test(id ?? '')) continue;
      await rm(join(this.rootDir, area, org, id), { recursive: true, force: true });
    }
  }
}
