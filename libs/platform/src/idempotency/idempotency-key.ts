import { createHash } from 'node:crypto';
import { Errors } from '@mapi/contracts';

const MAX_KEY_LENGTH = 255;

/** An `Idempotency-Key` header as given (undefined without one); 422 on `idempotency-key` when empty or too long. */
export function validateIdempotencyKey(key: string | undefined): string | undefined {
  if (key === undefined) return undefined;
  if (key.length === 0 || key.length > MAX_KEY_LENGTH) {
    throw Errors.validation({ 'idempotency-key': { message: `Idempotency-Key must be 1 to ${MAX_KEY_LENGTH} characters`, value: key } });
  }
  return key;
}

/** A request's fingerprint: a repeat with another body under the same key is refused. */
export const requestFingerprint = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('hex');

/** The 422 of a key seen before with another request. */
export const idempotencyKeyReused = () =>
  Errors.validation({ 'idempotency-key': { message: 'this Idempotency-Key was used with a different request', value: null } });

/**
 * A UUID (v5-shaped) derived from an organization, an operation, a key and an index: the same key
 * always names the same job, ticket or note, so a retried create finds what the first one made and
 * two racing ones collide on the primary key instead of making two.
 */
export function idempotencyUuid(orgId: string, operation: string, key: string, index = 0): string {
  const h = createHash('sha256').update(`${orgId}|${operation}|${key}|${index}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h[16], 16) & 0x3) | 0x8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
