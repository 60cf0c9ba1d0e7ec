import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { extname } from 'node:path';
import { Errors, ServiceError, ErrorCode, base64Length, type FileInput } from '@mapi/contracts';

const MIME_BY_EXTENSION: Record<string, string> = {
  '.pdf': 'application/pdf',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.md': 'text/markdown',
  '.markdown': 'text/markdown',
  '.txt': 'text/plain',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.mp4': 'video/mp4',
  '.mp3': 'audio/mpeg',
  '.ogg': 'audio/ogg',
  '.csv': 'text/csv',
  '.json': 'application/json',
};

export function guessMimetype(filename: string): string {
  return MIME_BY_EXTENSION[extname(filename).toLowerCase()] ?? 'application/octet-stream';
}

export interface InlineFile {
  bytes: Buffer;
  mimetype: string;
}

const DATA_URL = /^data:([^;,]*)(;[^,]*)?,(.*)$/s;

/**
 * Decodes `base64` or `file` (a data URL or plain base64); `field` names the body field for errors.
 * A file larger than `maxBytes` is refused (`tooBig`, a 413) from its base64 length, before decoding.
 */
export function decodeInlineFile(input: FileInput, field: 'document' | 'attachment', maxBytes: number): InlineFile {
  const tooBig = () => tooLarge(field, maxBytes);
  const raw = (input.base64 ?? input.file)!;
  let mimetype = input.mimetype;
  let payload = raw;
  const dataUrl = DATA_URL.exec(raw);
  if (dataUrl) {
    if (!/;base64/i.test(dataUrl[2] ?? '')) {
      payload = Buffer.from(decodeURIComponent(dataUrl[3])).toString('base64');
    } else {
      payload = dataUrl[3];
    }
    mimetype ??= dataUrl[1] || undefined;
  }
  if (payload.length > base64Length(maxBytes) + 1024) throw tooBig(); // surely too large, even with whitespace
  const compact = payload.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(compact) || compact.length === 0) {
    throw Errors.validation({
      [`body.${field}.${input.base64 !== undefined ? 'base64' : 'file'}`]: { message: 'not valid base64 (or a base64 data URL)' },
    });
  }
  const bytes = Buffer.from(compact, 'base64');
  if (bytes.length > maxBytes) throw tooBig();
  return { bytes, mimetype: mimetype ?? guessMimetype(input.filename) };
}

/** Loopback, private, link-local, unique-local and unspecified addresses: not fetched by default. */
export function isPrivateAddress(address: string): boolean {
  if (isIP(address) === 4) {
    const [a, b] = address.split('.').map(Number);
    return (
      a === 10 ||
      a === 127 ||
      a === 0 ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 169 && b === 254) ||
      (a === 100 && b >= 64 && b <= 127)
    );
  }
  const v6 = address.toLowerCase();
  if (v6.startsWith('::ffff:')) return isPrivateAddress(v6.slice(7));
  return v6 === '::1' || v6 === '::' || v6.startsWith('fc') || v6.startsWith('fd') || v6.startsWith('fe80');
}

export interface FetchOptions {
  maxBytes: number;
  timeoutMs: number;
  allowPrivate: boolean;
}

/** 413 for a document or attachment over its limit. */
const tooLarge = (what: 'document' | 'attachment', max: number) =>
  new ServiceError(ErrorCode.PAYLOAD_TOO_LARGE_ERROR, 413, `The ${what} is larger than the limit of ${max} bytes`);

/**
 * Downloads a document URL: http(s) only, no redirects, private addresses refused unless allowed
 * (the check resolves the host first; see docs), a size cap enforced while reading, a timeout.
 */
export async function fetchFile(url: string, field: 'document' | 'attachment', options: FetchOptions): Promise<InlineFile> {
  const fail = (message: string) => Errors.validation({ [`body.${field}.url`]: { message } });
  const target = new URL(url);
  if (!options.allowPrivate) {
    const host = target.hostname.replace(/^\[|\]$/g, '');
    const addresses = isIP(host) ? [host] : (await lookup(host, { all: true }).catch(() => [])).map((a) => a.address);
    if (addresses.length === 0) throw fail(`could not resolve ${target.hostname}`);
    if (addresses.some(isPrivateAddress)) throw fail('urls on private or loopback addresses are not fetched');
  }
  let res: Response;
  try {
    res = await fetch(target, { redirect: 'manual', signal: AbortSignal.timeout(options.timeoutMs) });
  } catch (error) {
    throw fail(`could not fetch the url: ${(error as Error).message}`);
  }
  if (res.status >= 300 && res.status < 400) throw fail(`the url redirects (${res.status}); give the final url`);
  if (!res.ok || !res.body) throw fail(`fetching the url answered ${res.status}`);
  const declared = Number(res.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > options.maxBytes) throw tooLarge(field, options.maxBytes);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.length;
    if (size > options.maxBytes) throw tooLarge(field, options.maxBytes);
    chunks.push(Buffer.from(chunk));
  }
  const header = res.headers.get('content-type')?.split(';')[0]?.trim();
  return {
    bytes: Buffer.concat(chunks),
    mimetype: header && header !== 'application/octet-stream' ? header : guessMimetype(target.pathname),
  };
}
