import { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { randomSuffix, testEnv } from '@mapi/testing';
import { idempotencyKey } from '../queues/keys';
import { IdempotencyStore, fingerprint } from './idempotency-store';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Idempotency-Key reservations on real Redis: a live holder keeps its key, a dead one frees it within the lease. */
describe('IdempotencyStore', () => {
  let redis: Redis;
  const namespace = `${testEnv.namespace()}-idem-${randomSuffix(3)}`;
  const org = randomUUID();
  const request = { chat_id: '4915112345678', message: 'hi' };

  beforeAll(() => {
    redis = new Redis(testEnv.redisUrl(), { maxRetriesPerRequest: null });
  });
  afterAll(async () => {
    const own = await redis.keys(`*${namespace}*`);
    if (own.length) await redis.del(...own);
    redis.disconnect();
  });

  it('a holder that runs longer than its lease keeps the key: the repeat waits and gets its answer, the work runs once', async () => {
    const store = new IdempotencyStore(redis, namespace, 60, 5_000, 300);
    let runs = 0;
    const work = async () => (runs++, await sleep(1_000), { queue_id: 'q-1' });
    const first = store.run(org, 'send', 'k-live', request, work);
    await sleep(50);
    const repeat = store.run(org, 'send', 'k-live', request, work);
    expect(await Promise.all([first, repeat])).toEqual([{ queue_id: 'q-1' }, { queue_id: 'q-1' }]);
    expect(runs).toBe(1);
  });

  it('a holder whose process died frees the key within the lease: the retry runs and answers', async () => {
    const store = new IdempotencyStore(redis, namespace, 60, 5_000, 300);
    // What a process killed mid-request leaves: its reservation, no longer renewed.
    await redis.set(idempotencyKey(namespace, org, 'send', 'k-dead'), `pending:${fingerprint(request)}`, 'PX', 300);
    const started = Date.now();
    expect(await store.run(org, 'send', 'k-dead', request, async () => ({ queue_id: 'q-2' }))).toEqual({ queue_id: 'q-2' });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('a repeat waiting on a first request that fails runs itself; another body under the key is refused', async () => {
    const store = new IdempotencyStore(redis, namespace, 60, 5_000, 300);
    const first = store.run(org, 'send', 'k-fail', request, async () => {
      await sleep(200);
      throw new Error('phone gone');
    });
    await sleep(20);
    const repeat = store.run(org, 'send', 'k-fail', request, async () => ({ queue_id: 'q-3' }));
    await expect(first).rejects.toThrow('phone gone');
    expect(await repeat).toEqual({ queue_id: 'q-3' });
    await expect(store.run(org, 'send', 'k-fail', { ...request, message: 'other' }, async () => ({ queue_id: 'x' }))).rejects.toMatchObject(
      { status: 422 },
    );
  });

  it('a repeat that outwaits its wait for a first request still running is 503, a failure to retry, not a 4xx', async () => {
    const store = new IdempotencyStore(redis, namespace, 60, 200, 5_000);
    const first = store.run(org, 'send', 'k-slow', request, async () => (await sleep(1_000), { queue_id: 'q-4' }));
    await sleep(20);
    await expect(store.run(org, 'send', 'k-slow', request, async () => ({ queue_id: 'x' }))).rejects.toMatchObject({
      status: 503,
      code: 'SERVICE_UNAVAILABLE_ERROR',
    });
    expect(await first).toEqual({ queue_id: 'q-4' });
    expect(await store.run(org, 'send', 'k-slow', request, async () => ({ queue_id: 'x' }))).toEqual({ queue_id: 'q-4' });
  });
});
