import { createHash } from 'node:crypto';
import { ROUTES, ServiceError, type AuthenticatedSession } from '@mapi/contracts';
import type { Logger } from '@mapi/platform';
import { checkRole } from '../http/console-hooks';
import { Authenticator, type RequestCredentials } from './authenticator';
import type { Principal } from './principal';
import type { SessionLookup } from './session-client';
import type { TokenPrincipals } from './token-principals';

const TOKEN = 'mapi_s3cr3t-token-value_abcdefghijklmnopqrstuvwxyz0123';
const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

const PRINCIPAL: Principal = {
  token_id: '6d0f8a5e-7b8c-4c1d-9e2f-0a1b2c3d4e5f',
  org_id: '5b0c3f0e-4a47-4c5e-9a57-1f5f0d7a0c11',
  phone_scope: null,
  rate_limit_per_second: null,
};

/** In-memory stand-in for the Prisma-backed repository: usable tokens by SHA-256 hash. */
class FakeTokenRepository {
  readonly lookups: string[] = [];
  readonly touched: string[] = [];
  failTouch = false;
  /** The database is away: every lookup fails as Prisma's does when it cannot connect. */
  down = false;

  constructor(readonly byHash: Map<string, Principal>) {}

  async findUsableByHash(tokenHash: string): Promise<Principal | null> {
    this.lookups.push(tokenHash);
    if (this.down) throw Object.assign(new Error("Can't reach database server at 127.0.0.1:5432"), { code: 'P1001' });
    return this.byHash.get(tokenHash) ?? null;
  }

  async touch(tokenId: string): Promise<void> {
    this.touched.push(tokenId);
    if (this.failTouch) throw new Error('database is down');
  }

  /** Organizations with a usable plan (a session's organization is checked like a token's). */
  readonly usableOrgs = new Set([PRINCIPAL.org_id]);

  async usableOrganization(orgId: string): Promise<{ rate_limit_per_second: number | null } | null> {
    return this.usableOrgs.has(orgId) ? { rate_limit_per_second: 7 } : null;
  }
}

const silentLogger = () => ({ error: jest.fn(), warn: jest.fn(), info: jest.fn(), debug: jest.fn() });

function setup(ttlMs = 5_000, staleMs = 60_000) {
  const repo = new FakeTokenRepository(new Map([[sha256(TOKEN), PRINCIPAL]]));
  const logger = silentLogger();
  const auth = new Authenticator(
    repo as unknown as TokenPrincipals,
    { AUTH_CACHE_TTL_MS: ttlMs, AUTH_CACHE_STALE_MS: staleMs },
    logger as unknown as Logger,
  );
  return { repo, logger, auth };
}

async function rejection(promise: Promise<unknown>): Promise<ServiceError> {
  const error = await promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ServiceError);
  return error as ServiceError;
}

describe('Authenticator', () => {
  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['without a token', 'Bearer'],
    ['of another scheme', `Basic ${TOKEN}`],
    ['with two tokens', `Bearer ${TOKEN} other`],
  ])('rejects a %s Authorization header with 401 and no lookup', async (_what, header) => {
    const { auth, repo } = setup();
    const error = await rejection(auth.authenticate(header));
    expect(error.status).toBe(401);
    expect(error.code).toBe('UNAUTHORIZED_ERROR');
    expect(repo.lookups).toEqual([]);
  });

  it('rejects an unknown token with 401', async () => {
    const { auth } = setup();
    const error = await rejection(auth.authenticate('Bearer mapi_unknown'));
    expect(error.toEnvelope()).toMatchObject({ status: 401, code: 'UNAUTHORIZED_ERROR' });
  });

  it('returns the principal of a usable token and records its use', async () => {
    const { auth, repo } = setup();
    await expect(auth.authenticate(`Bearer ${TOKEN}`)).resolves.toEqual(PRINCIPAL);
    expect(repo.touched).toEqual([PRINCIPAL.token_id]);
  });

  it('asks the repository by the SHA-256 hex of the token, never by the token itself', async () => {
    const { auth, repo } = setup();
    await auth.authenticate(`Bearer ${TOKEN}`);
    await auth.authenticate('Bearer mapi_unknown').catch(() => undefined);
    expect(repo.lookups).toEqual([sha256(TOKEN), sha256('mapi_unknown')]);
    for (const hash of repo.lookups) {
      expect(hash).toMatch(/^[0-9a-f]{64}$/);
      expect(hash).not.toContain('mapi_');
    }
  });

  it('forgets a revoked token at once: its next request is looked up again (and refused once gone)', async () => {
    const { auth, repo } = setup();
    await auth.authenticate(`Bearer ${TOKEN}`);
    auth.forgetToken('another-token-id');
    await auth.authenticate(`Bearer ${TOKEN}`);
    expect(repo.lookups).toHaveLength(1);
    auth.forgetToken(PRINCIPAL.token_id);
    repo.byHash.delete(sha256(TOKEN));
    expect((await rejection(auth.authenticate(`Bearer ${TOKEN}`))).status).toBe(401);
    expect(repo.lookups).toHaveLength(2);
  });

  it('serves a usable token from the cache within the ttl', async () => {
    const { auth, repo } = setup();
    await auth.authenticate(`Bearer ${TOKEN}`);
    await expect(auth.authenticate(`bearer ${TOKEN}`)).resolves.toEqual(PRINCIPAL);
    expect(repo.lookups).toHaveLength(1);
  });

  it('looks the token up again once the ttl has passed', async () => {
    jest.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z') });
    try {
      const { auth, repo } = setup(5_000);
      await auth.authenticate(`Bearer ${TOKEN}`);
      jest.advanceTimersByTime(5_000);
      await auth.authenticate(`Bearer ${TOKEN}`);
      expect(repo.lookups).toHaveLength(2);
    } finally {
      jest.useRealTimers();
    }
  });

  it('never caches unknown tokens', async () => {
    const { auth, repo } = setup();
    await auth.authenticate('Bearer mapi_unknown').catch(() => undefined);
    await auth.authenticate('Bearer mapi_unknown').catch(() => undefined);
    expect(repo.lookups).toHaveLength(2);
  });

  it('does not cache at all with a ttl of 0', async () => {
    const { auth, repo } = setup(0);
    await auth.authenticate(`Bearer ${TOKEN}`);
    await auth.authenticate(`Bearer ${TOKEN}`);
    expect(repo.lookups).toHaveLength(2);
  });

  it('still authenticates when recording the use fails, and logs a warning', async () => {
    const { auth, repo, logger } = setup();
    repo.failTouch = true;
    await expect(auth.authenticate(`Bearer ${TOKEN}`)).resolves.toEqual(PRINCIPAL);
    await new Promise((resolve) => setImmediate(resolve));
    expect(logger.warn).toHaveBeenCalledTimes(1);
  });
});

// Console sessions: the cookie where a bearer token would be, the CSRF token on changes, roles.
const SESSION_TOKEN = 'c2Vzc2lvbi10b2tlbi1vZi1hbXktMDEyMzQ1Njc4OQ';
const CSRF_TOKEN = 'Y3NyZi10b2tlbi1vZi1hbXktMDEyMzQ1Njc4OWFiYw';

/** The members service's stand-in: live sessions by the SHA-256 of their token. */
class FakeSessionLookup implements SessionLookup {
  readonly lookups: string[] = [];
  readonly live = new Map<string, AuthenticatedSession>();

  async find(tokenHash: string): Promise<AuthenticatedSession | null> {
    this.lookups.push(tokenHash);
    return this.live.get(tokenHash) ?? null;
  }
}

function sessionSetup(role: AuthenticatedSession['role'] = 'member', ttlMs = 5_000, staleMs = 60_000) {
  const repo = new FakeTokenRepository(new Map([[sha256(TOKEN), PRINCIPAL]]));
  const sessions = new FakeSessionLookup();
  sessions.live.set(sha256(SESSION_TOKEN), {
    session_id: 'f1d2c3b4-0000-4000-8000-000000000001',
    member_id: 'a1b2c3d4-0000-4000-8000-000000000002',
    org_id: PRINCIPAL.org_id,
    email: 'amy@example.com',
    role,
    phone_ids: role === 'member' ? ['phone-1'] : null,
    label_ids: null,
    csrf_hash: sha256(CSRF_TOKEN),
  });
  const auth = new Authenticator(
    repo as unknown as TokenPrincipals,
    { AUTH_CACHE_TTL_MS: ttlMs, AUTH_CACHE_STALE_MS: staleMs },
    silentLogger() as unknown as Logger,
    sessions,
  );
  return { repo, sessions, auth };
}

const cookie = (token = SESSION_TOKEN) => `theme=dark; mapi_session=${token}; mapi_csrf=${CSRF_TOKEN}`;
const withSession = (auth: Authenticator, credentials: RequestCredentials) =>
  auth.authenticate(undefined, { cookie: cookie(), ...credentials });

describe('Authenticator: console sessions', () => {
  it("accepts the session cookie where a bearer token is: the member's principal, its phones as the scope", async () => {
    const { auth, sessions } = sessionSetup('member');
    const principal = await withSession(auth, { method: 'GET' });
    expect(principal).toEqual({
      token_id: 'a1b2c3d4-0000-4000-8000-000000000002',
      org_id: PRINCIPAL.org_id,
      phone_scope: ['phone-1'],
      rate_limit_per_second: 7,
      member: {
        member_id: 'a1b2c3d4-0000-4000-8000-000000000002',
        session_id: 'f1d2c3b4-0000-4000-8000-000000000001',
        email: 'amy@example.com',
        role: 'member',
        label_ids: null,
      },
    });
    expect(sessions.lookups).toEqual([sha256(SESSION_TOKEN)]);
  });

  it('takes the bearer token when both are sent: the cookie is ignored, so API clients never need x-csrf-token', async () => {
    const { auth, sessions } = sessionSetup();
    await expect(auth.authenticate(`Bearer ${TOKEN}`, { cookie: cookie(), method: 'POST' })).resolves.toEqual(PRINCIPAL);
    expect(sessions.lookups).toEqual([]);
  });

  it('refuses a bearer token on a session-only route (sign-out, me) with 401', async () => {
    const { auth } = sessionSetup();
    expect((await rejection(auth.authenticate(`Bearer ${TOKEN}`, { mode: 'session', method: 'GET' }))).status).toBe(401);
  });

  it.each(['POST', 'PUT', 'PATCH', 'DELETE', 'post'])('refuses %s without x-csrf-token, or with another one, with 403', async (method) => {
    const { auth } = sessionSetup();
    for (const csrf of [undefined, '', 'not-the-token', CSRF_TOKEN.slice(1), `${CSRF_TOKEN}x`, sha256(CSRF_TOKEN)]) {
      const error = await rejection(withSession(auth, { method, csrf }));
      expect(error.toEnvelope()).toMatchObject({ status: 403, code: 'FORBIDDEN_ERROR' });
    }
    await expect(withSession(auth, { method, csrf: CSRF_TOKEN })).resolves.toMatchObject({ member: { email: 'amy@example.com' } });
  });

  it('checks x-csrf-token on a change even when the session comes from the cache', async () => {
    const { auth, sessions } = sessionSetup();
    await withSession(auth, { method: 'GET' });
    expect((await rejection(withSession(auth, { method: 'DELETE' }))).status).toBe(403);
    expect(sessions.lookups).toHaveLength(1);
  });

  it.each(['GET', 'HEAD', 'OPTIONS', 'get'])('lets %s through without x-csrf-token', async (method) => {
    const { auth } = sessionSetup();
    await expect(withSession(auth, { method })).resolves.toMatchObject({ member: { role: 'member' } });
  });

  it('refuses an unknown (or ended) session with 401, before any CSRF check, and never caches it', async () => {
    const { auth, sessions } = sessionSetup();
    const other = 'b3RoZXItc2Vzc2lvbi10b2tlbi0wMTIzNDU2Nzg5';
    for (let i = 0; i < 2; i++) {
      const error = await rejection(auth.authenticate(undefined, { cookie: cookie(other), method: 'POST', csrf: CSRF_TOKEN }));
      expect(error.toEnvelope()).toMatchObject({ status: 401, code: 'UNAUTHORIZED_ERROR' });
    }
    expect(sessions.lookups).toEqual([sha256(other), sha256(other)]);
  });

  it('refuses a malformed session cookie with 401 without asking the members service', async () => {
    const { auth, sessions } = sessionSetup();
    for (const bad of ['short', 'x'.repeat(101), 'has spaces in it and is long enough', 'semi;colon-but-long-enough-000']) {
      expect((await rejection(auth.authenticate(undefined, { cookie: `mapi_session=${bad}`, method: 'GET' }))).status).toBe(401);
    }
    expect(sessions.lookups).toEqual([]);
  });

  it('refuses a session that expired after it was cached, once the cache time has passed', async () => {
    jest.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z') });
    try {
      const { auth, sessions } = sessionSetup('member', 5_000);
      await withSession(auth, { method: 'GET' });
      sessions.live.clear(); // the session's time is up (or it was signed out on another replica)
      await expect(withSession(auth, { method: 'GET' })).resolves.toBeDefined();
      jest.advanceTimersByTime(5_000);
      expect((await rejection(withSession(auth, { method: 'GET' }))).status).toBe(401);
    } finally {
      jest.useRealTimers();
    }
  });

  it('refuses a live session of an organization without a usable plan with 401', async () => {
    const { auth, repo } = sessionSetup();
    repo.usableOrgs.clear();
    expect((await rejection(withSession(auth, { method: 'GET' }))).status).toBe(401);
  });

  it("forgets a member's sessions at once on sign-out (this replica)", async () => {
    const { auth, sessions } = sessionSetup();
    await withSession(auth, { method: 'GET' });
    sessions.live.clear();
    auth.forgetSessions('a1b2c3d4-0000-4000-8000-000000000002');
    expect((await rejection(withSession(auth, { method: 'GET' }))).status).toBe(401);
  });

  it('without a cookie or a token: 401', async () => {
    const { auth } = sessionSetup();
    expect((await rejection(auth.authenticate(undefined, { cookie: 'theme=dark', method: 'GET' }))).status).toBe(401);
  });
});

describe('owner/admin-only routes (checkRole) for the principals the authenticator makes', () => {
  const adminRoutes = ROUTES.filter((r) => r.role === 'admin');
  const openRoute = ROUTES.find((r) => r.method === 'GET' && r.path === '/chats');

  it('has admin-only routes to check, and GET /chats is not one', () => {
    expect(adminRoutes.map((r) => `${r.method} ${r.path}`)).toEqual(
      expect.arrayContaining(['POST /members/invite', 'POST /phones/create', 'DELETE /phones/delete']),
    );
    expect(openRoute?.role).toBeUndefined();
  });

  it("refuses a member's session on every admin-only route with 403", async () => {
    const principal = await withSession(sessionSetup('member').auth, { method: 'GET' });
    for (const route of adminRoutes) {
      let error: unknown = null;
      try {
        checkRole(route, principal);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ServiceError);
      expect((error as ServiceError).toEnvelope()).toMatchObject({ status: 403, code: 'FORBIDDEN_ERROR' });
    }
  });

  it.each(['owner', 'admin'] as const)("lets an %s's session through", async (role) => {
    const principal = await withSession(sessionSetup(role).auth, { method: 'GET' });
    for (const route of adminRoutes) expect(() => checkRole(route, principal)).not.toThrow();
  });

  it('lets a bearer token through (tokens are not members) and a member through on other routes', async () => {
    const token = await setup().auth.authenticate(`Bearer ${TOKEN}`);
    for (const route of adminRoutes) expect(() => checkRole(route, token)).not.toThrow();
    const member = await withSession(sessionSetup('member').auth, { method: 'GET' });
    expect(() => checkRole(openRoute as (typeof ROUTES)[number], member)).not.toThrow();
  });
});

describe('Authenticator while the database is away', () => {
  beforeEach(() => jest.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z') }));
  afterEach(() => jest.useRealTimers());

  it('requests that find the entry expired share one lookup', async () => {
    const { auth, repo } = setup(1_000);
    const answers = await Promise.all(Array.from({ length: 100 }, () => auth.authenticate(`Bearer ${TOKEN}`)));
    expect(answers.every((p) => p.token_id === PRINCIPAL.token_id)).toBe(true);
    expect(repo.lookups).toHaveLength(1);
  });

  it('a token used within AUTH_CACHE_STALE_MS keeps working; past it, the outage is the answer', async () => {
    const { auth, repo } = setup(1_000, 10_000);
    await auth.authenticate(`Bearer ${TOKEN}`);
    repo.down = true;
    jest.advanceTimersByTime(5_000);
    expect((await auth.authenticate(`Bearer ${TOKEN}`)).token_id).toBe(PRINCIPAL.token_id);
    jest.advanceTimersByTime(6_000);
    await expect(auth.authenticate(`Bearer ${TOKEN}`)).rejects.toMatchObject({ code: 'P1001' });
  });

  it('a token revoked while cached stops at its next lookup: a stale entry covers outages only', async () => {
    const { auth, repo } = setup(1_000, 10_000);
    await auth.authenticate(`Bearer ${TOKEN}`);
    repo.byHash.clear();
    jest.advanceTimersByTime(1_000);
    expect((await rejection(auth.authenticate(`Bearer ${TOKEN}`))).status).toBe(401);
  });

  it('an unknown token is never answered from a stale entry', async () => {
    const { auth, repo } = setup(1_000, 10_000);
    repo.down = true;
    await expect(auth.authenticate('Bearer mapi_unknown-token-value_abcdefghijklmnopqrstuvwxyz0123')).rejects.toMatchObject({
      code: 'P1001',
    });
  });
});
