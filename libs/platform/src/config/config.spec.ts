import { ConfigError, directDatabaseUrl, loadConfig } from './config';

const failureOf = (fn: () => unknown): ConfigError => {
  try {
    fn();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
};

describe('loadConfig', () => {
  it('fills defaults from an empty environment', () => {
    const config = loadConfig(['app', 'http', 'nats', 'rateLimit', 'auth', 'database', 'redis'], {});
    expect(config.app).toEqual({ NODE_ENV: 'development', NAMESPACE: 'mapi' });
    expect(config.http).toEqual({ HOST: '0.0.0.0', PORT: 8080, BODY_LIMIT_BYTES: 10 * 1024 * 1024 });
    expect(config.nats).toEqual({ NATS_URL: 'nats://127.0.0.1:4222', RPC_TIMEOUT_MS: 10_000, RPC_UNAVAILABLE_RETRY_MS: 5_000 });
    expect(config.rateLimit).toEqual({ RATE_LIMIT_PER_SECOND: 100, RATE_LIMIT_ROUTES: {} });
    expect(config.auth).toEqual({ AUTH_CACHE_TTL_MS: 5_000, AUTH_CACHE_STALE_MS: 60_000 });
    expect(config.database.DATABASE_POOL_SIZE).toBe(10);
    expect(config.redis.REDIS_URL).toBe('redis://127.0.0.1:6379');
  });

  it('a transaction-mode pooler needs a direct URL beside it, which LISTEN and migrations then use', () => {
    const pooled = { DATABASE_URL: 'postgresql://app@pgbouncer:6432/mapi', DATABASE_POOLER: 'pgbouncer' };
    expect(failureOf(() => loadConfig(['database'], pooled)).message).toMatch(
      /DATABASE_DIRECT_URL: required with DATABASE_POOLER=pgbouncer/,
    );
    const { database } = loadConfig(['database'], { ...pooled, DATABASE_DIRECT_URL: 'postgresql://app@postgres:5432/mapi' });
    expect(database.DATABASE_POOLER).toBe('pgbouncer');
    expect(directDatabaseUrl(database)).toBe('postgresql://app@postgres:5432/mapi');
    const direct = loadConfig(['database'], { DATABASE_URL: 'postgresql://app@postgres:5432/mapi', DATABASE_DIRECT_URL: '' }).database;
    expect(direct.DATABASE_POOLER).toBe('none');
    expect(directDatabaseUrl(direct)).toBe('postgresql://app@postgres:5432/mapi');
    expect(failureOf(() => loadConfig(['database'], { DATABASE_POOLER: 'pgpool' })).message).toMatch(/DATABASE_POOLER/);
  });

  it('coerces numbers and parses the JSON route limits', () => {
    const config = loadConfig(['http', 'rateLimit', 'app'], {
      PORT: '3000',
      BODY_LIMIT_BYTES: '1024',
      RATE_LIMIT_PER_SECOND: '25',
      RATE_LIMIT_ROUTES: '{"GET /chats/{chat_id}/messages": 10}',
      NODE_ENV: 'production',
      NAMESPACE: 'ci-run-42',
    });
    expect(config.http.PORT).toBe(3000);
    expect(config.http.BODY_LIMIT_BYTES).toBe(1024);
    expect(config.rateLimit).toEqual({ RATE_LIMIT_PER_SECOND: 25, RATE_LIMIT_ROUTES: { 'GET /chats/{chat_id}/messages': 10 } });
    expect(config.app).toEqual({ NODE_ENV: 'production', NAMESPACE: 'ci-run-42' });
  });

  it.each([
    ['PORT', 'http', { PORT: 'abc' }],
    ['PORT', 'http', { PORT: '-1' }],
    ['PORT', 'http', { PORT: '80.5' }],
    ['NAMESPACE', 'app', { NAMESPACE: 'Mapi' }],
    ['NODE_ENV', 'app', { NODE_ENV: 'staging' }],
    ['RATE_LIMIT_ROUTES', 'rateLimit', { RATE_LIMIT_ROUTES: 'not json' }],
    ['RATE_LIMIT_ROUTES', 'rateLimit', { RATE_LIMIT_ROUTES: '{"GET /x": 0}' }],
    ['DATABASE_URL', 'database', { DATABASE_URL: 'not a url' }],
  ] as const)('throws a ConfigError naming %s for a bad value', (variable, group, env) => {
    const error = failureOf(() => loadConfig([group], env));
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toContain(`${variable}:`);
  });

  it('reports every bad variable at once', () => {
    const error = failureOf(() => loadConfig(['app', 'http'], { PORT: 'abc', NAMESPACE: 'UPPER' }));
    expect(error.message).toContain('PORT:');
    expect(error.message).toContain('NAMESPACE:');
  });

  it('returns exactly the requested groups and ignores variables of the others', () => {
    const config = loadConfig(['app', 'nats'], { PORT: 'abc', NATS_URL: 'nats://nats:4222' });
    expect(Object.keys(config).sort()).toEqual(['app', 'nats']);
    expect(config.nats.NATS_URL).toBe('nats://nats:4222');
  });

  it('reads process.env when no environment is given', () => {
    const before = process.env.RPC_TIMEOUT_MS;
    process.env.RPC_TIMEOUT_MS = '1234';
    try {
      expect(loadConfig(['nats']).nats.RPC_TIMEOUT_MS).toBe(1234);
    } finally {
      if (before === undefined) delete process.env.RPC_TIMEOUT_MS;
      else process.env.RPC_TIMEOUT_MS = before;
    }
  });
});
