import { Errors } from '@mapi/contracts';
import { bearerToken, hashApiToken, type Logger } from '@mapi/platform';
import type { Principal } from './principal';
import type { TokenRepository } from '../repositories/token-repository';
import { TtlCache } from './ttl-cache';

/**
 * Bearer token → principal. Usable tokens are cached for AUTH_CACHE_TTL_MS (default 5 s): a revoked
 * token stops working within that time. Unknown tokens are never cached.
 */
export class Authenticator {
  private readonly cache: TtlCache<Principal>;

  constructor(
    private readonly tokens: TokenRepository,
    ttlMs: number,
    private readonly logger: Logger,
  ) {
    this.cache = new TtlCache(ttlMs);
  }

  async authenticate(authorization: string | undefined): Promise<Principal> {
    const token = bearerToken(authorization);
    if (!token) throw Errors.unauthorized('Missing bearer token: send Authorization: Bearer <API_TOKEN>');
    const hash = hashApiToken(token);
    const cached = this.cache.get(hash);
    if (cached) return cached;
    const principal = await this.tokens.findUsableByHash(hash);
    if (!principal) throw Errors.unauthorized('Invalid bearer token, or the organization has no active Pro or Enterprise plan');
    this.cache.set(hash, principal);
    this.tokens.touch(principal.token_id).catch((err) => this.logger.warn({ err }, 'could not record token use'));
    return principal;
  }
}
