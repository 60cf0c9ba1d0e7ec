import type { ApiToken } from '@mapi/contracts';
import type { TokenRecord } from './repositories/token-repository';

/** A stored token as the API shows it. */
export function toApiToken(t: TokenRecord): ApiToken {
  return {
    id: t.id,
    name: t.name,
    prefix: t.token_prefix,
    phone_scope: t.phone_scoped ? t.phone_ids : null,
    created_at: t.created_at.toISOString(),
    last_used_at: t.last_used_at?.toISOString() ?? null,
    revoked_at: t.revoked_at?.toISOString() ?? null,
  };
}
