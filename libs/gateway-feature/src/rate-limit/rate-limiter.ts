import type { Redis } from 'ioredis';

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Epoch seconds when the current window ends. */
  reset: number;
}

// One round trip: count n requests in the current one-second window, expiring the key with it.
const SCRIPT = `local c = redis.call('INCRBY', KEYS[1], ARGV[2]) if c == tonumber(ARGV[2]) then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end return c`;

const WINDOW_TTL_MS = 2_000;

interface Waiter {
  resolve: (count: number) => void;
  reject: (error: Error) => void;
}

/**
 * Fixed one-second windows counted in Redis, so the limit holds across gateway replicas. The
 * bucket is per token; a route with its own limit (RATE_LIMIT_ROUTES) is counted in its own bucket.
 *
 * Hits on one window key are coalesced: while a key's count is on its way to Redis, the hits that
 * arrive for the same key wait and then go as one `INCRBY n`, each given its own place in the sum
 * (the first of n gets total − n + 1, …). The counts and headers are exactly those of one INCR per
 * request in arrival order, and the count stays in Redis (every replica adds to the same key); a
 * request alone on its key is sent at once, so only a busy token's requests share round trips.
 */
export class RateLimiter {
  /** Hits waiting for their key's call in flight to return, by key. */
  private readonly waiting = new Map<string, Waiter[]>();
  /** Keys with a call in flight. */
  private readonly busy = new Set<string>();

  constructor(
    private readonly redis: Redis,
    private readonly namespace: string,
  ) {
    this.redis.defineCommand('mapiRateLimitBy', { numberOfKeys: 1, lua: SCRIPT });
  }

  async hit(tokenId: string, bucket: string, limit: number, now = Date.now()): Promise<RateLimitDecision> {
    const second = Math.floor(now / 1000);
    const count = await this.count(`${this.namespace}:rl:${tokenId}:${bucket}:${second}`);
    return { allowed: count <= limit, limit, remaining: Math.max(0, limit - count), reset: second + 1 };
  }

  /** This hit's position in the key's window (1 for the first request of the second). */
  private count(key: string): Promise<number> {
    return new Promise((resolve, reject) => {
      const queue = this.waiting.get(key);
      if (queue) queue.push({ resolve, reject });
      else this.waiting.set(key, [{ resolve, reject }]);
      if (!this.busy.has(key)) this.send(key);
    });
  }

  private send(key: string): void {
    const batch = this.waiting.get(key);
    if (!batch) return;
    this.waiting.delete(key);
    this.busy.add(key);
    const n = batch.length;
    const redis = this.redis as unknown as { mapiRateLimitBy(k: string, ttl: number, n: number): Promise<number> };
    new Promise<number>((resolve) => resolve(redis.mapiRateLimitBy(key, WINDOW_TTL_MS, n)))
      .then(
        (total) => batch.forEach((w, i) => w.resolve(Number(total) - n + 1 + i)),
        (error: Error) => batch.forEach((w) => w.reject(error)),
      )
      .finally(() => {
        this.busy.delete(key);
        this.send(key);
      });
  }
}
