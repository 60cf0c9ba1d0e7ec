import { createHash } from 'node:crypto';
import { ErrorCode, ServiceError } from '@mapi/contracts';
import type { Logger } from '@mapi/platform';
import type { Redis } from 'ioredis';
import type { ConsoleAuthConfig } from './console-auth-config';

export { ConsoleAuthConfigSchema, type ConsoleAuthConfig } from './console-auth-config';

// Count one failure; the window starts at the first one.
const FAIL = `local c = redis.call('INCR', KEYS[1]) if c == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end return c`;

/**
 * Failed sign-ins counted in Redis per account (the email's SHA-256: no addresses in Redis) and per
 * client address, in a fixed window from the first failure. Past either limit the route answers 429
 * with Retry-After until the window ends, right or wrong password alike. A Redis outage fails open
 * (logged), as the request rate limiter does.
 */
export class SignInThrottle {
  constructor(
    private readonly redis: Redis,
    private readonly namespace: string,
    private readonly config: ConsoleAuthConfig,
    private readonly logger: Logger,
  ) {
    this.redis.defineCommand('mapiSignInFail', { numberOfKeys: 1, lua: FAIL });
  }

  private keys(email: string, address: string): [string, number][] {
    const account = createHash('sha256').update(email.toLowerCase()).digest('hex');
    return [
      [`${this.namespace}:signin:acct:${account}`, this.config.SIGN_IN_MAX_FAILURES_PER_ACCOUNT],
      [`${this.namespace}:signin:addr:${address}`, this.config.SIGN_IN_MAX_FAILURES_PER_ADDRESS],
    ];
  }

  /** Refuses (429, with the seconds to wait) when the account or the address is past its limit. */
  async check(email: string, address: string): Promise<void> {
    let waits: number[];
    try {
      const keys = this.keys(email, address);
      const counts = await this.redis.mget(...keys.map(([k]) => k));
      const over = keys.filter(([, max], i) => Number(counts[i] ?? 0) >= max).map(([k]) => k);
      if (!over.length) return;
      waits = await Promise.all(over.map((k) => this.redis.pttl(k)));
    } catch (err) {
      this.logger.warn({ err: (err as Error).message }, 'sign-in throttle unavailable; attempt allowed');
      return;
    }
    const seconds = Math.max(1, Math.ceil(Math.max(...waits) / 1000));
    throw Object.assign(new ServiceError(ErrorCode.RATE_LIMIT_ERROR, 429, `Too many failed sign-ins: try again in ${seconds} seconds`), { retryAfter: seconds });
  }

  async fail(email: string, address: string): Promise<void> {
    const ttl = this.config.SIGN_IN_WINDOW_SECONDS * 1000;
    const run = this.redis as unknown as { mapiSignInFail(k: string, ttl: number): Promise<number> };
    await Promise.all(this.keys(email, address).map(([k]) => run.mapiSignInFail(k, ttl))).catch((err) =>
      this.logger.warn({ err: (err as Error).message }, 'could not count a failed sign-in'),
    );
  }
}
