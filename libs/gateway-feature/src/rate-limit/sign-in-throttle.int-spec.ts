import { ServiceError } from '@mapi/contracts';
import { createLogger } from '@mapi/platform';
import { randomSuffix, testEnv } from '@mapi/testing';
import { Redis } from 'ioredis';
import { ConsoleAuthConfigSchema, SignInThrottle, type SignInAttempt } from './sign-in-throttle';

/** Sign-in attempts counted in a real Redis, per account and per client address, before the password check. */
describe('SignInThrottle', () => {
  let redis: Redis;
  const ns = `${testEnv.namespace()}-${randomSuffix(3)}`;
  const throttle = () =>
    new SignInThrottle(
      redis,
      ns,
      ConsoleAuthConfigSchema.parse({
        SIGN_IN_MAX_FAILURES_PER_ACCOUNT: '2',
        SIGN_IN_MAX_FAILURES_PER_ADDRESS: '3',
        SIGN_IN_WINDOW_SECONDS: '60',
      }),
      createLogger('test', 'silent'),
    );
  const refusal = async (p: Promise<SignInAttempt>) => {
    const err = await p.then(
      () => null,
      (e: unknown) => e,
    );
    return err instanceof ServiceError
      ? { status: err.status, code: err.code, retryAfter: (err as { retryAfter?: number }).retryAfter }
      : null;
  };

  beforeAll(() => {
    redis = new Redis(testEnv.redisUrl());
  });
  afterAll(() => redis.quit());

  it('refuses an account past its failed attempts, whatever the address; other accounts go on', async () => {
    const t = throttle();
    expect(await refusal(t.attempt('Amy@example.com', '10.0.0.1'))).toBeNull();
    expect(await refusal(t.attempt('amy@example.com', '10.0.0.2'))).toBeNull();
    expect(await refusal(t.attempt('amy@example.com', '10.0.0.3'))).toMatchObject({ status: 429, code: 'RATE_LIMIT_ERROR' });
    expect((await refusal(t.attempt('amy@example.com', '10.0.0.3')))?.retryAfter).toBeGreaterThan(50);
    expect(await refusal(t.attempt('bob@example.com', '10.0.0.3'))).toBeNull();
    expect(await redis.keys(`${ns}:signin:acct:*amy*`)).toEqual([]);
  });

  it('refuses an address past its failed attempts, whatever the account; a refusal counts nothing', async () => {
    const t = throttle();
    for (const email of ['a@example.com', 'b@example.com', 'c@example.com']) expect(await refusal(t.attempt(email, '10.9.9.9'))).toBeNull();
    expect(await refusal(t.attempt('d@example.com', '10.9.9.9'))).toMatchObject({ status: 429 });
    expect(await refusal(t.attempt('d@example.com', '10.9.9.8'))).toBeNull();
    expect(await redis.get(`${ns}:signin:addr:10.9.9.9`)).toBe('3');
  });

  it('counts parallel attempts atomically: of a burst, exactly the limit pass', async () => {
    const t = throttle();
    const burst = await Promise.all(Array.from({ length: 40 }, () => refusal(t.attempt('burst@example.com', '10.7.7.7'))));
    expect(burst.filter((r) => r === null)).toHaveLength(2);
    expect(burst.filter((r) => r?.status === 429)).toHaveLength(38);
  });

  it('gives a successful attempt back: successes never lock anyone out', async () => {
    const t = throttle();
    for (let i = 0; i < 5; i++) await (await t.attempt('good@example.com', '10.6.6.6')).succeeded();
    expect(await redis.exists(`${ns}:signin:addr:10.6.6.6`)).toBe(0);
    await t.attempt('good@example.com', '10.6.6.6');
    await (await t.attempt('good@example.com', '10.6.6.6')).succeeded();
    expect(await redis.get(`${ns}:signin:addr:10.6.6.6`)).toBe('1');
    expect(await refusal(t.attempt('good@example.com', '10.6.6.6'))).toBeNull();
    expect(await refusal(t.attempt('good@example.com', '10.6.6.6'))).toMatchObject({ status: 429 });
  });
});
