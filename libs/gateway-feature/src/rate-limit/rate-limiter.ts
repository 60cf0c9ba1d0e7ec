import type { Redis } from 'ioredis';

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Epoch seconds when the current window ends. */
  reset: number;
}

// One round trip: count this request in the current one-second window, expiring the key with it.
const SCRIPT = `local c = redis.call('INCR', KEYS[1]) if c == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end return c`;

/**
 * Fixed one-second windows counted in Redis, so the limit holds across gateway replicas. The
 * bucket is per token; a route with its own limit (RATE_LIMIT_ROUTES) is counted in its own bucket.
 */
export class RateLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly namespace: string,
  ) {
    this.redis.defineCommand('mapiRateLimit', { numberOfKeys: 1, lua: SCRIPT });
  }

  async hit(tokenId: string, bucket: string, limit: number, now = Date.now()): Promise<RateLimitDecision> {
    const second = Math.floor(now / 1000);
    const key = `${this.namespace}:rl:${tokenId}:${bucket}:${second}`;
    const count = Number(await (this.redis as unknown as { mapiRateLimit(k: string, ttl: number): Promise<number> }).mapiRateLimit(key, 2_000));
    return { allowed: count <= limit, limit, remaining: Math.max(0, limit - count), reset: second + 1 };
  }
}
