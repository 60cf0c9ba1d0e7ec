import { Errors, parsePhoneRef } from '@mapi/contracts';
import type { AuthCacheTimes } from '../auth/authenticator';
import { TtlCache } from '../auth/ttl-cache';
import type { Principal } from '../auth/principal';
import type { PhoneDirectoryClient, ResolvedPhone } from './phone-directory-client';

/**
 * `x-phone` → a phone of the caller's organization within the token's scope. Malformed values are
 * a 422; a phone that is unknown, deleted, of another organization or outside the token's scope is
 * a 401 (spec part 5), worded the same in every case so nothing leaks about other organizations.
 */
export class PhoneResolver {
  private readonly cache: TtlCache<ResolvedPhone | null>;

  /** Lookups cached as tokens are (AUTH_CACHE_TTL_MS), shared by concurrent requests, stale while phones is away. */
  constructor(
    private readonly phones: PhoneDirectoryClient,
    ttl: AuthCacheTimes,
  ) {
    this.cache = new TtlCache(ttl.AUTH_CACHE_TTL_MS, 10_000, ttl.AUTH_CACHE_STALE_MS);
  }

  async resolve(principal: Principal, header: string | undefined, required: boolean): Promise<ResolvedPhone | null> {
    if (header === undefined || (header.trim() === '' && !required)) {
      if (required) throw Errors.validation({ 'x-phone': { message: 'x-phone header is required', value: null } });
      return null;
    }
    const ref = parsePhoneRef(header);
    if (!ref) {
      throw Errors.validation({
        'x-phone': { message: 'x-phone must be phone digits (country code + number) or a phone_id of the form phone-<id>', value: header },
      });
    }
    const key = `${principal.org_id}|${header.trim()}`;
    const phone = await this.cache.getOrLoad(key, () => this.phones.findByRef(principal.org_id, ref));
    if (!phone || (principal.phone_scope && !principal.phone_scope.includes(phone.phone_id))) {
      throw Errors.unauthorized(`Phone ${header.trim()} is not accessible with this token`);
    }
    return phone;
  }
}
