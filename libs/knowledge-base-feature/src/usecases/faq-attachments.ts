import type { FileInput, KbAttachment } from '@mapi/contracts';
import type { AttachmentStore } from '../attachments/attachment-store';
import { decodeInlineFile, guessMimetype } from '../attachments/file-input';

/**
 * Attachments of an FAQ from the request: an inline or uploaded file (`base64`/`file`, at most
 * `maxBytes`, else 413) is stored through the media storage; a `url` (or a legacy `attachments` URL)
 * is kept as a reference without being downloaded.
 */
export async function buildAttachments(
  store: AttachmentStore,
  maxBytes: number,
  orgId: string,
  attachment: FileInput | undefined,
  urls: string[] | null | undefined,
): Promise<KbAttachment[]> {
  const out: KbAttachment[] = [];
  for (const url of urls ?? []) {
    const name = decodeURIComponent(new URL(url).pathname.split('/').filter(Boolean).pop() ?? 'attachment');
    out.push({ link: { url, type: guessMimetype(name), name } });
  }
  if (attachment) {
    if (attachment.url !== undefined) {
      out.push({
        link: { url: attachment.url, type: attachment.mimetype ?? guessMimetype(attachment.filename), name: attachment.filename },
      });
    } else {
      const file = decodeInlineFile(attachment, 'attachment', maxBytes);
      out.push({ link: await store.put('attachment', orgId, attachment.filename, file.bytes, file.mimetype) });
    }
  }
  return out;
}
