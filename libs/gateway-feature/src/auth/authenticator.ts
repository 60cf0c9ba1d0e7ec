import { timingSafeEqual } from 'node:crypto';
import { ErrorCode, Errors, ServiceError, type AuthenticatedSession } from '@mapi/contracts';
import { bearerToken, hashApiToken, outageLog, type Logger } from '@mapi/platform';
import type { Principal } from './principal';
import type { TokenRepository } from '../repositories/token-repository';
import { SESSION_COOKIE, readCookie } from './cookies';
import type { SessionLookup } from './session-client';
import { TtlCache } from './ttl-cache';

/** What a request offers besides its Authorization header: the Cookie header, its method and x-csrf-token. */
export interface RequestCredentials {
  cookie?: string;
  method?: string;
  csrf?: string;
  /** `session`: only a console session will do (sign-out, me); a bearer token is 401. */
  mode?: 'api' | 'session';
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const NO_CREDENTIALS = 'Missing bearer token: send Authorization: Bearer <API_TOKEN> (or sign in to the console)';

const sameHash = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * Bearer token or console session cookie → principal. Usable tokens and live sessions are cached for
 * AUTH_CACHE_TTL_MS (default 5 s): a revocation, sign-out or access change takes effect within that
 * time (at once on the replica that served the sign-out). Unknown ones are never cached. A session
 * is a member of the organization: its phones narrow the request as a scoped token's do, and
 * state-changing methods need its CSRF token in x-csrf-token (403 otherwise).
 */
export class Authenticator {
  private readonly cache: TtlCache<Principal>;
  private readonly sessionCache: TtlCache<{ principal: Principal; csrf_hash: string }>;

  constructor(
    private readonly tokens: TokenRepository,
    ttlMs: number,
    private readonly logger: Logger,
    private readonly sessions?: SessionLookup,
  ) {
    this.cache = new TtlCache(ttlMs);
    this.sessionCache = new TtlCache(ttlMs);
  }

  async authenticate(authorization: string | undefined, credentials: RequestCredentials = {}): Promise<Principal> {
    const sessionToken = readCookie(credentials.cookie, SESSION_COOKIE);
    if (authorization === undefined && sessionToken && this.sessions) return this.fromSession(this.sessions, sessionToken, credentials);
    if (credentials.mode === 'session') throw Errors.unauthorized('This route needs a console session (sign in first)');
    const token = bearerToken(authorization);
    if (!token) throw Errors.unauthorized(NO_CREDENTIALS);
    const hash = hashApiToken(token);
    const cached = this.cache.get(hash);
    if (cached) return cached;
    const principal = await this.tokens.findUsableByHash(hash);
    if (!principal) throw Errors.unauthorized('Invalid bearer token, or the organization has no active Pro or Enterprise plan');
    this.cache.set(hash, principal);
    this.tokens.touch(principal.token_id).catch((err) => outageLog(this.logger).warn('could not record token use', { err }));
    return principal;
  }

  /** Forgets a revoked token at once on this replica; the others within AUTH_CACHE_TTL_MS. */
  forgetToken(tokenId: string): void {
    this.cache.deleteWhere((p) => p.token_id === tokenId);
  }

  /** Forgets a session at once on this replica (its sign-out); the others within AUTH_CACHE_TTL_MS. */
  forgetSessions(memberId: string): void {
    this.sessionCache.deleteWhere((v) => v.principal.member?.member_id === memberId);
  }

  private async fromSession(sessions: SessionLookup, sessionToken: string, credentials: RequestCredentials): Promise<Principal> {
    const hash = hashApiToken(sessionToken);
    let entry = this.sessionCache.get(hash);
    if (!entry) {
      const session = /^[A-Za-z0-9_-]{20,100}$/.test(sessionToken) ? await sessions.find(hash) : null;
      const principal = session && (await this.sessionPrincipal(session));
      if (!session || !principal)
        throw Errors.unauthorized('The console session has ended, or the organization has no active Pro or Enterprise plan: sign in again');
      entry = { principal, csrf_hash: session.csrf_hash };
      this.sessionCache.set(hash, entry);
    }
    if (!SAFE_METHODS.has((credentials.method ?? 'GET').toUpperCase())) {
      if (!credentials.csrf || !sameHash(hashApiToken(credentials.csrf), entry.csrf_hash)) {
        throw new ServiceError(
          ErrorCode.FORBIDDEN_ERROR,
          403,
          "Missing or wrong x-csrf-token: send the session's CSRF token (the mapi_csrf cookie) with every change",
        );
      }
    }
    return entry.principal;
  }

  private async sessionPrincipal(s: AuthenticatedSession): Promise<Principal | null> {
    const org = await this.tokens.usableOrganization(s.org_id);
    if (!org) return null;
    return {
      token_id: s.member_id,
      org_id: s.org_id,
      phone_scope: s.phone_ids,
      rate_limit_per_second: org.rate_limit_per_second,
      member: { member_id: s.member_id, session_id: s.session_id, email: s.email, role: s.role, label_ids: s.label_ids },
    };
  }
}
