import { createHash } from 'node:crypto';
import { ServiceError } from '@mapi/contracts';
import type { Logger } from '@mapi/platform';
import { Authenticator } from './authenticator';
import type { Principal } from './principal';
import type { TokenRepository } from '../repositories/token-repository';

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

  constructor(private readonly byHash: Map<string, Principal>) {}

  async findUsableByHash(tokenHash: string): Promise<Principal | null> {
    this.lookups.push(tokenHash);
    return this.byHash.get(tokenHash) ?? null;
  }

  async touch(tokenId: string): Promise<void> {
    this.touched.push(tokenId);
    if (this.failTouch) throw new Error('database is down');
  }
}

const silentLogger = () => ({ error: jest.fn(), warn: jest.fn(), info: jest.fn(), debug: jest.fn() });

function setup(ttlMs = 5_000) {
  const repo = new FakeTokenRepository(new Map([[sha256(TOKEN), PRINCIPAL]]));
  const logger = silentLogger();
  const auth = new Authenticator(repo as unknown as TokenRepository, ttlMs, logger as unknown as Logger);
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
