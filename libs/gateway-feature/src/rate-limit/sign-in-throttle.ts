import { createHash } from 'node:crypto';
import { ErrorCode, ServiceError } from '@mapi/contracts';
import type { Logger } from '@mapi/platform';
import type { Redis } from 'ioredis';
import type { ConsoleAuthConfig } from './console-auth-config';

export { ConsoleAuthConfigSchema, type ConsoleAuthConfig } from './console-auth-config';

/**
 * One attempt, checked and counted in one step (KEYS: the counters; ARGV[1]: the window in ms,
 * ARGV[1 + i]: KEYS[i]'s limit). A counter at its limit refuses: the answer is the longest wait in ms
 * (>= 0) and nothing is counted. Otherwise every counter goes up by one (the window starts at the
 * first) and the answer is -1. Parallel attempts cannot all pass a check made before any is counted.
 */
const ATTEMPT = `
local wait = -1
for i = 1, #KEYS do
  if tonumber(redis.call('GET', KEYS[i]) or '0') >= tonumber(ARGV[i + 1]) then
    local ttl = redis.call('PTTL', KEYS[i])
    if ttl < 0 then redis.call('PEXPIRE', KEYS[i], ARGV[1]) ttl = tonumber(ARGV[1]) end
    if ttl > wait then wait = ttl end
  end
end
if wait >= 0 then return wait end
for i = 1, #KEYS do
  if redis.call('INCR', KEYS[i]) == 1 then redis.call('PEXPIRE', KEYS[i], ARGV[1]) end
end
return -1`;

/** A successful attempt is given back: each counter down by one (gone at zero, as if never counted). */
const CREDIT = `
for i = 1, #KEYS do
  local c = tonumber(redis.call('GET', KEYS[i]) or '0')
  if c > 1 then redis.call('DECR', KEYS[i]) elseif c == 1 then redis.call('DEL', KEYS[i]) end
end
return 0`;

type ThrottleCommands = {
  mapiSignInAttempt(...args: (string | number)[]): Promise<number>;
  mapiSignInCredit(...args: (string | number)[]): Promise<number>;
};

/** A counted attempt: `succeeded()` gives it back; a failed one (any other outcome) stays counted. */
export interface SignInAttempt {
  succeeded(): Promise<void>;
}

const UNCOUNTED: SignInAttempt = { succeeded: async () => undefined };

/**
 * Sign-in attempts counted in Redis per account (the email's SHA-256: no addresses in Redis) and per
 * client address, in a fixed window from the first. Each attempt is counted before the password is
 * checked, atomically with the check of the limits, and given back when it succeeds: what remains
 * counted is the failures (and attempts under way). Past either limit the route answers 429 with
 * Retry-After until the window ends, right or wrong password alike. A Redis outage fails open
 * (logged), as the request rate limiter does.
 */
export class SignInThrottle {
  private readonly run: ThrottleCommands;

  constructor(
    private readonly redis: Redis,
    private readonly namespace: string,
    private readonly config: ConsoleAuthConfig,
    private readonly logger: Logger,
  ) {
    this.redis.defineCommand('mapiSignInAttempt', { lua: ATTEMPT });
    this.redis.defineCommand('mapiSignInCredit', { lua: CREDIT });
    this.run = this.redis as unknown as ThrottleCommands;
  }

  private keys(email: string, address: string): [string, number][] {
    const account = createHash('sha256').update(email.toLowerCase()).digest('hex');
    return [
      [`${this.namespace}:signin:acct:${account}`, this.config.SIGN_IN_MAX_FAILURES_PER_ACCOUNT],
      [`${this.namespace}:signin:addr:${address}`, this.config.SIGN_IN_MAX_FAILURES_PER_ADDRESS],
    ];
  }

  /**
   * Counts one attempt of this account from this address, or refuses it (429, with the seconds to
   * wait) when either is at its limit; call before the password is checked.
   */
  async attempt(email: string, address: string): Promise<SignInAttempt> {
    const keys = this.keys(email, address);
    let waitMs: number;
    try {
      const window = this.config.SIGN_IN_WINDOW_SECONDS * 1000;
      waitMs = await this.run.mapiSignInAttempt(keys.length, ...keys.map(([k]) => k), window, ...keys.map(([, max]) => max));
    } catch (err) {
      this.logger.warn({ err: (err as Error).message }, 'sign-in throttle unavailable; attempt allowed');
      return UNCOUNTED;
    }
    if (waitMs < 0) return { succeeded: () => this.credit(keys.map(([k]) => k)) };
    const seconds = Math.max(1, Math.ceil(waitMs / 1000));
    throw Object.assign(new ServiceError(ErrorCode.RATE_LIMIT_ERROR, 429, `Too many failed sign-ins: try again in ${seconds} seconds`), {
      retryAfter: seconds,
    });
  }

  private async credit(keys: string[]): Promise<void> {
    await this.run
      .mapiSignInCredit(keys.length, ...keys)
      .catch((err: Error) => this.logger.warn({ err: err.message }, 'could not give back a successful sign-in attempt'));
  }
}
