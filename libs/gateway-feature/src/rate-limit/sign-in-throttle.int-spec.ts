import { ServiceError } from '@mapi/contracts';
import { createLogger } from '@mapi/platform';
import { randomSuffix, testEnv } from '@mapi/testing';
import { Redis } from 'ioredis';
import { ConsoleAuthConfigSchema, SignInThrottle } from './sign-in-throttle';

/** Failed sign-ins counted in a real Redis, per account and per client address. */
describe('SignInThrottle', () => {
  let redis: Redis;
  const ns = `${testEnv.namespace()}-${randomSuffix(3)}`;
  const throttle = () =>
    new SignInThrottle(redis, ns, ConsoleAuthConfigSchema.parse({ SIGN_IN_MAX_FAILURES_PER_ACCOUNT: '2', SIGN_IN_MAX_FAILURES_PER_ADDRESS: '3', SIGN_IN_WINDOW_SECONDS: '60' }), createLogger('test', 'silent'));
  const refusal = async (p: Promise<void>) => {
    const err = await p.then(() => null, (e: unknown) => e);
    return err instanceof ServiceError ? { status: err.status, code: err.code, retryAfter: (err as { retryAfter?: number }).retryAfter } : null;
  };

  beforeAll(() => {
    redis = new Redis(testEnv.redisUrl());
  });
  afterAll(() => redis.quit());

  it('refuses an account past its failures, whatever the address; other accounts go on', async () => {
    const t = throttle();
    await t.fail('Amy@example.com', '10.0.0.1');
    expect(await refusal(t.check('amy@example.com', '10.0.0.2'))).toBeNull();
    await t.fail('amy@example.com', '10.0.0.2');
    expect(await refusal(t.check('amy@example.com', '10.0.0.3'))).toMatchObject({ status: 429, code: 'RATE_LIMIT_ERROR' });
    expect((await refusal(t.check('amy@example.com', '10.0.0.3')))!.retryAfter).toBeGreaterThan(50);
    expect(await refusal(t.check('bob@example.com', '10.0.0.3'))).toBeNull();
    expect(await redis.keys(`${ns}:signin:acct:*amy*`)).toEqual([]);
  });

  it('refuses an address past its failures, whatever the account', async () => {
    const t = throttle();
    for (const email of ['a@example.com', 'b@example.com', 'c@example.com']) await t.fail(email, '10.9.9.9');
    expect(await refusal(t.check('d@example.com', '10.9.9.9'))).toMatchObject({ status: 429 });
    expect(await refusal(t.check('d@example.com', '10.9.9.8'))).toBeNull();
  });
});
