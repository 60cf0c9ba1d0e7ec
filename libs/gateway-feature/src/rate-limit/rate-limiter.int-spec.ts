import { randomSuffix, testEnv } from '@mapi/testing';
import { Redis } from 'ioredis';
import { RateLimiter } from './rate-limiter';

/** The per-token one-second windows, counted in a real Redis; concurrent hits share round trips but not places. */
describe('RateLimiter', () => {
  let redis: Redis;
  let other: Redis;
  const ns = `${testEnv.namespace()}-${randomSuffix(3)}`;
  // a fixed instant in the middle of a second, so a test never straddles two windows
  const now = Math.floor(Date.now() / 1000) * 1000 + 500;

  beforeAll(() => {
    redis = new Redis(testEnv.redisUrl());
    other = new Redis(testEnv.redisUrl());
  });
  afterAll(async () => {
    await redis.quit();
    await other.quit();
  });

  it('gives concurrent hits on one key every place 1..n exactly once, as one INCR each would', async () => {
    const limiter = new RateLimiter(redis, ns);
    const decisions = await Promise.all(Array.from({ length: 50 }, () => limiter.hit('tok-a', 'all', 30, now)));
    const remaining = decisions.map((d) => d.remaining);
    expect(decisions.filter((d) => d.allowed)).toHaveLength(30);
    // places 1..30 leave 29..0; the 20 over the limit all see 0
    expect(remaining.filter((r) => r > 0).sort((a, b) => a - b)).toEqual(Array.from({ length: 29 }, (_, i) => i + 1));
    expect(remaining.filter((r) => r === 0)).toHaveLength(21);
    expect(decisions.every((d) => d.limit === 30 && d.reset === Math.floor(now / 1000) + 1)).toBe(true);
    expect(await redis.get(`${ns}:rl:tok-a:all:${Math.floor(now / 1000)}`)).toBe('50');
    const ttl = await redis.pttl(`${ns}:rl:tok-a:all:${Math.floor(now / 1000)}`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(2_000);
  });

  it('holds the limit across replicas: two limiters on their own connections allow exactly the limit between them', async () => {
    const a = new RateLimiter(redis, ns);
    const b = new RateLimiter(other, ns);
    const hits = Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).hit('tok-b', 'all', 25, now));
    const decisions = await Promise.all(hits);
    expect(decisions.filter((d) => d.allowed)).toHaveLength(25);
    expect(new Set(decisions.filter((d) => d.allowed).map((d) => d.remaining)).size).toBe(25);
  });

  it('counts tokens, buckets and seconds apart', async () => {
    const limiter = new RateLimiter(redis, ns);
    const [x, y, z, later] = await Promise.all([
      limiter.hit('tok-c', 'all', 5, now),
      limiter.hit('tok-d', 'all', 5, now),
      limiter.hit('tok-c', 'GET /chats', 5, now),
      limiter.hit('tok-c', 'all', 5, now + 1_000),
    ]);
    expect([x, y, z, later].map((d) => d.remaining)).toEqual([4, 4, 4, 4]);
    expect(later.reset).toBe(x.reset + 1);
  });

  it('fails every waiting hit when Redis cannot be reached, then counts again once it can', async () => {
    const down = new Redis(testEnv.redisUrl(), { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    const limiter = new RateLimiter(down, ns);
    const results = await Promise.allSettled(Array.from({ length: 3 }, () => limiter.hit('tok-e', 'all', 5, now)));
    expect(results.every((r) => r.status === 'rejected')).toBe(true);
    // the failed commands started the lazy connection
    if (down.status !== 'ready') await new Promise((resolve) => down.once('ready', resolve));
    try {
      expect((await limiter.hit('tok-e', 'all', 5, now)).remaining).toBe(4);
    } finally {
      down.disconnect();
    }
  });
});
