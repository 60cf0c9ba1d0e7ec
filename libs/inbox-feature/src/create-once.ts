import type { RequestContext } from '@mapi/contracts';
import { idempotencyKeyReused, idempotencyUuid, requestFingerprint, validateIdempotencyKey } from '@mapi/platform';

/** What an `Idempotency-Key` makes of a create: the id the row takes, and the request's fingerprint. */
export interface CreateOnce {
  id: string;
  hash: string;
}

/**
 * A create under an `Idempotency-Key` (null without one; 422 for an empty or over-long key). The row's id
 * derives from the organization, the operation and the key, so a retry finds what the first request made
 * and two racing requests collide on the primary key: one row, one event.
 */
export function createOnce(
  ctx: RequestContext,
  operation: string,
  headers: Record<string, string> | undefined,
  body: unknown,
): CreateOnce | null {
  const key = validateIdempotencyKey(headers?.['idempotency-key']);
  if (key === undefined) return null;
  const hash = requestFingerprint({ phone: ctx.phone?.phone_id ?? null, scope: ctx.phone_scope, body });
  return { id: idempotencyUuid(ctx.org_id, `inbox.${operation}`, key), hash };
}

/** The row a key made before, for the same request; another request under the key is 422 on idempotency-key. */
export function sameRequest<T extends { request_hash: string | null }>(prior: T, once: CreateOnce): T {
  if (prior.request_hash !== once.hash) throw idempotencyKeyReused();
  return prior;
}
