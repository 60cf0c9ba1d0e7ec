import { Errors, type FileInput, type KbAttachment } from '@mapi/contracts';
import type { AttachmentStore } from '../attachments/attachment-store';
import { decodeInlineFile, guessMimetype } from '../attachments/file-input';

/** The largest inline attachment, decoded: what the gateway lets through (see MAX_INLINE_BASE64_CHARS). */
const MAX_ATTACHMENT_BYTES = 512 * 1024;

/**
 * Attachments of an FAQ from the request: an inline file (`base64`/`file`) is stored through the
 * store; a `url` (or a legacy `attachments` URL) is kept as a reference without being downloaded.
 */
export async function buildAttachments(
  store: AttachmentStore,
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
      out.push({ link: { url: attachment.url, type: attachment.mimetype ?? guessMimetype(attachment.filename), name: attachment.filename } });
    } else {
      const file = decodeInlineFile(attachment, 'attachment');
      if (file.bytes.length > MAX_ATTACHMENT_BYTES) {
        throw Errors.validation({ 'body.attachment': { message: `the attachment is larger than ${MAX_ATTACHMENT_BYTES} bytes` } });
      }
      out.push({ link: await store.put('kb-attachments', orgId, attachment.filename, file.bytes, file.mimetype) });
    }
  }
  return out;
}
