import { timingSafeEqual } from 'node:crypto';
import { ErrorCode, Errors, ServiceError, type AuthenticatedSession } from '@mapi/contracts';
import { bearerToken, hashApiToken, outageLog, type Logger } from '@mapi/platform';
import type { Principal } from './principal';
import type { TokenPrincipals } from './token-principals';
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

/** How long usable tokens and sessions are cached, and how long past that they serve while their source is away. */
export interface AuthCacheTimes {
  AUTH_CACHE_TTL_MS: number;
  AUTH_CACHE_STALE_MS: number;
}

interface SessionEntry {
  principal: Principal;
  csrf_hash: string;
}

/** Unknown tokens and ended sessions are never cached. */
const known = <V>(value: V | null): boolean => value !== null;

const sameHash = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * Bearer token or console session cookie → principal. Usable tokens and live sessions are cached for
 * AUTH_CACHE_TTL_MS (default 5 s): a revocation, sign-out or access change takes effect within that
 * time (at once on the replica that served the sign-out). Unknown ones are never cached. Concurrent
 * requests with an expired entry share one lookup; while the lookup cannot reach its database (or
 * the members service), an entry expired less than AUTH_CACHE_STALE_MS ago (default 60 s) is used,
 * so a Postgres restart does not fail every request the moment an entry expires (docs/operations.md). A session
 * is a member of the organization: its phones narrow the request as a scoped token's do, and
 * state-changing methods need its CSRF token in x-csrf-token (403 otherwise).
 */
export class Authenticator {
  private readonly cache: TtlCache<Principal | null>;
  private readonly sessionCache: TtlCache<SessionEntry | null>;

  constructor(
    private readonly tokens: TokenPrincipals,
    ttl: AuthCacheTimes,
    private readonly logger: Logger,
    private readonly sessions?: SessionLookup,
  ) {
    this.cache = new TtlCache(ttl.AUTH_CACHE_TTL_MS, 10_000, ttl.AUTH_CACHE_STALE_MS);
    this.sessionCache = new TtlCache(ttl.AUTH_CACHE_TTL_MS, 10_000, ttl.AUTH_CACHE_STALE_MS);
  }

  async authenticate(authorization: string | undefined, credentials: RequestCredentials = {}): Promise<Principal> {
    const sessionToken = readCookie(credentials.cookie, SESSION_COOKIE);
    if (authorization === undefined && sessionToken && this.sessions) return this.fromSession(this.sessions, sessionToken, credentials);
    if (credentials.mode === 'session') throw Errors.unauthorized('This route needs a console session (sign in first)');
    const token = bearerToken(authorization);
    if (!token) throw Errors.unauthorized(NO_CREDENTIALS);
    const hash = hashApiToken(token);
    const principal = await this.cache.getOrLoad(hash, () => this.lookUpToken(hash), known);
    if (!principal) throw Errors.unauthorized('Invalid bearer token, or the organization has no active Pro or Enterprise plan');
    return principal;
  }

  private async lookUpToken(hash: string): Promise<Principal | null> {
    const principal = await this.tokens.findUsableByHash(hash);
    if (principal) this.tokens.touch(principal.token_id).catch((err) => outageLog(this.logger).warn('could not record token use', { err }));
    return principal;
  }

  /** Forgets a revoked token at once on this replica; the others within AUTH_CACHE_TTL_MS. */
  forgetToken(tokenId: string): void {
    this.cache.deleteWhere((p) => p?.token_id === tokenId);
  }

  /** Forgets a session at once on this replica (its sign-out); the others within AUTH_CACHE_TTL_MS. */
  forgetSessions(memberId: string): void {
    this.sessionCache.deleteWhere((v) => v?.principal.member?.member_id === memberId);
  }

  private async fromSession(sessions: SessionLookup, sessionToken: string, credentials: RequestCredentials): Promise<Principal> {
    const hash = hashApiToken(sessionToken);
    const entry = /^[A-Za-z0-9_-]{20,100}$/.test(sessionToken)
      ? await this.sessionCache.getOrLoad(hash, () => this.lookUpSession(sessions, hash), known)
      : null;
    if (!entry)
      throw Errors.unauthorized('The console session has ended, or the organization has no active Pro or Enterprise plan: sign in again');
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

  private async lookUpSession(sessions: SessionLookup, hash: string): Promise<SessionEntry | null> {
    const session = await sessions.find(hash);
    const principal = session && (await this.sessionPrincipal(session));
    return session && principal ? { principal, csrf_hash: session.csrf_hash } : null;
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
