import { createHmac, randomBytes } from 'node:crypto';

const PREFIX = 'whsec_';

/** A new signing secret: `whsec_` + base64 of 32 random bytes (the Standard Webhooks form). */
export function generateSecret(): string {
  return PREFIX + randomBytes(32).toString('base64');
}

/** The HMAC key of a secret: the bytes its base64 part encodes (as Standard Webhooks libraries decode it). */
export function secretKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
}

/**
 * The secrets that sign an attempt made at `at`: the current one, then the one it replaced while the
 * rotation's overlap window is open (so receivers that still hold the old secret keep verifying).
 */
export function signingSecrets(current: string, previous: string | null, previousExpiresAt: Date | null, at: Date): string[] {
  if (!previous || !previousExpiresAt) return [current];
  return previousExpiresAt.getTime() > at.getTime() ? [current, previous] : [current];
}

/**
 * Headers that sign one attempt: Standard Webhooks (`webhook-id` = event id, the same on every retry;
 * `webhook-timestamp` = this attempt's time; `webhook-signature` = `v1,<base64 HMAC-SHA256 of
 * id.timestamp.body>`, one space-separated entry per secret, the current one first) and
 * `x-service-signature` (hex HMAC-SHA256 of the body alone, with the current secret only).
 */
export function signatureHeaders(secrets: readonly string[], eventId: string, body: string, at: Date): Record<string, string> {
  const timestamp = Math.floor(at.getTime() / 1000).toString();
  const signed = `${eventId}.${timestamp}.${body}`;
  return {
    'webhook-id': eventId,
    'webhook-timestamp': timestamp,
    'webhook-signature': secrets.map((s) => `v1,${createHmac('sha256', secretKey(s)).update(signed).digest('base64')}`).join(' '),
    'x-service-signature': createHmac('sha256', secretKey(secrets[0])).update(body).digest('hex'),
  };
}
