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
 * Headers that sign one attempt: Standard Webhooks (`webhook-id` = event id, the same on every retry;
 * `webhook-timestamp` = this attempt's time; `webhook-signature` = v1,<base64 HMAC-SHA256 of
 * id.timestamp.body>) and `x-service-signature` (hex HMAC-SHA256 of the body alone, same key).
 */
export function signatureHeaders(secret: string, eventId: string, body: string, at: Date): Record<string, string> {
  const key = secretKey(secret);
  const timestamp = Math.floor(at.getTime() / 1000).toString();
  const v1 = createHmac('sha256', key).update(`${eventId}.${timestamp}.${body}`).digest('base64');
  return {
    'webhook-id': eventId,
    'webhook-timestamp': timestamp,
    'webhook-signature': `v1,${v1}`,
    'x-service-signature': createHmac('sha256', key).update(body).digest('hex'),
  };
}
