import { createHmac, timingSafeEqual } from 'node:crypto';

/** `sha256=<hex>` of Meta's X-Hub-Signature-256: HMAC-SHA256 of the raw body with the app secret. */
export function signBody(rawBody: Buffer, appSecret: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(rawBody).digest('hex')}`;
}

/**
 * Whether a callback's X-Hub-Signature-256 is the app's signature of these exact bytes: `missing` when
 * absent or not of the form `sha256=<64 hex>`, compared in constant time otherwise.
 */
export function checkSignature(rawBody: Buffer, header: string | undefined, appSecret: string): 'valid' | 'missing' | 'invalid' {
  const m = /^sha256=([0-9a-fA-F]{64})$/.exec(header?.trim() ?? '');
  if (!m) return 'missing';
  const expected = createHmac('sha256', appSecret).update(rawBody).digest();
  return timingSafeEqual(expected, Buffer.from(m[1], 'hex')) ? 'valid' : 'invalid';
}
