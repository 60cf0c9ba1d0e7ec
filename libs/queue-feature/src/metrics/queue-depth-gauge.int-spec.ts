import { Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { bullConnection, createLogger, bullPrefix } from '@mapi/platform';
import { randomSuffix, testEnv } from '@mapi/testing';
import { sendQueueName } from '../queues/keys';
import { QueuePurger } from '../queues/queue-purger';
import type { SendJobData } from '../queues/send-job';
import { SendQueues } from '../queues/send-queues';
import { SendProcessor } from '../worker/send-processor';
import { FakeSession } from '../worker/testing/fake-session';
import { QueueDepthGauge, type QueueDepth } from './queue-depth-gauge';

/** The depth gauge against real Redis and BullMQ: it must equal what BullMQ itself counts. */
describe('QueueDepthGauge', () => {
  let redis: Redis;
  let queues: SendQueues;
  let purger: QueuePurger;
  let gauge: QueueDepthGauge;
  let namespace: string;
  let phones: string[];
  let worker: Worker | undefined;
  const org = randomUUID();

  const add = async (phoneId: string, n: number, broadcastId: string | null = null, notBefore?: number) => {
    const jobs = Array.from({ length: n }, () => ({ id: randomUUID(), chat_id: '4915112345678@c.us', content: { text: 'hi' }, notBefore }));
    await queues.add(org, phoneId, jobs, broadcastId);
    return jobs.map((j) => j.id);
  };
  /** BullMQ's own counts, summed over the phones. */
  const bullmqTotals = async () => {
    const totals = { waiting: 0, delayed: 0, active: 0 };
    for (const p of phones) {
      const c = await queues.queue(p).getJobCounts('prioritized', 'waiting', 'delayed', 'active');
      totals.waiting += c.prioritized + c.waiting;
      totals.delayed += c.delayed;
      totals.active += c.active;
    }
    return totals;
  };

  beforeEach(() => {
    redis = new Redis(testEnv.redisUrl(), { maxRetriesPerRequest: null });
    namespace = `${testEnv.namespace()}-qd-${randomSuffix(3)}`;
    queues = new SendQueues(redis, { namespace, attempts: 3, backoffMs: 100, keepFinishedSeconds: 600 });
    purger = new QueuePurger(queues);
    gauge = new QueueDepthGauge(redis, namespace, 0);
    phones = [0, 1, 2, 3].map(() => `phone-${randomSuffix(6)}`);
  });

  afterEach(async () => {
    await worker?.close(true);
    worker = undefined;
    for (const p of phones)
      await queues
        .queue(p)
        .obliterate({ force: true })
        .catch(() => undefined);
    const own = await redis.keys(`${namespace}:*`);
    if (own.length) await redis.del(...own);
    await queues.close();
    redis.disconnect();
  });

  it('is zero for a namespace without queues', async () => {
    expect(await gauge.read()).toMatchObject({ waiting: 0, delayed: 0, active: 0, phones: 0, phones_waiting: 0 });
  });

  it("equals the total of waiting jobs over several phones' queues (and BullMQ's own counts); drops after each kind of purge", async () => {
    const [a, b, c, d] = phones;
    const aIds = await add(a, 120);
    await add(b, 30, 'promo');
    await add(b, 5);
    await add(c, 7, null, Date.now() + 3_600_000); // scheduled: delayed, not waiting
    await add(d, 1);
    await add(d, 0);
    expect(await gauge.read()).toMatchObject({ waiting: 156, delayed: 7, active: 0, phones: 4, phones_waiting: 3 });
    expect(await bullmqTotals()).toEqual({ waiting: 156, delayed: 7, active: 0 });

    expect(await purger.purgeIds(a, aIds.slice(0, 20))).toBe(20);
    expect((await gauge.read()).waiting).toBe(136);
    expect(await purger.purgeBroadcast(b, 'promo')).toBe(30);
    expect((await gauge.read()).waiting).toBe(106);
    await purger.purgeAll(a); // renamed away at once, swept later: no longer counted either way
    expect(await gauge.read()).toMatchObject({ waiting: 6, delayed: 7, phones_waiting: 2 });
    await purger.purgeAll(c);
    expect(await gauge.read()).toMatchObject({ waiting: 6, delayed: 0 });
    expect(await bullmqTotals()).toEqual({ waiting: 6, delayed: 0, active: 0 });
  });

  it('drops as a worker sends the jobs, and counts the job a worker holds as active', async () => {
    const [a, b] = phones;
    await add(a, 6);
    await add(b, 4);
    expect((await gauge.read()).waiting).toBe(10);
    const session = new FakeSession();
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const processor = new SendProcessor(
      queues,
      session,
      { jitterMs: 0, phoneRetryMs: 200, maxWaitMs: 60_000, holdAfterSendMs: 0 },
      createLogger('queue-test', 'silent'),
    );
    let first = true;
    worker = new Worker<SendJobData>(
      sendQueueName(a),
      async (job) => {
        if (first) {
          first = false;
          await held; // the first job stays held until the gauge has seen it active
        }
        return processor.process(job);
      },
      { connection: bullConnection(testEnv.redisUrl()), prefix: bullPrefix(namespace), concurrency: 1, limiter: { max: 1, duration: 1 } },
    );
    const until = async (check: (d: QueueDepth) => boolean) => {
      const deadline = Date.now() + 10_000;
      for (let d = await gauge.read(); !check(d); d = await gauge.read()) {
        if (Date.now() > deadline) throw new Error(`gauge stayed at ${JSON.stringify(d)}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    await until((d) => d.active === 1 && d.waiting === 9);
    release();
    await until((d) => d.waiting === 4 && d.active === 0);
    expect(session.sends).toHaveLength(6);
    expect(await gauge.read()).toMatchObject({ waiting: 4, phones_waiting: 1 });
  });

  it('reports each phone with jobs, and when its next due job became due (scheduled jobs: not due, no age)', async () => {
    const [a, b] = phones;
    const t0 = Date.now();
    await add(a, 3);
    await add(b, 2, null, Date.now() + 3_600_000);
    const d = await gauge.read();
    const byPhone = Object.fromEntries(d.by_phone.map((p) => [p.phone_id, p]));
    expect(Object.keys(byPhone).sort()).toEqual([a, b].sort()); // phones without a queue are not reported
    expect(byPhone[a]).toMatchObject({ waiting: 3, delayed: 0, active: 0 });
    expect(byPhone[b]).toMatchObject({ waiting: 0, delayed: 2, active: 0 });
    expect(byPhone[b].oldest_due_at).toBeUndefined();
    expect(byPhone[a].oldest_due_at).toBeGreaterThanOrEqual(t0 - 5);
    expect(byPhone[a].oldest_due_at).toBeLessThanOrEqual(Date.now());
    expect(d.phones_waiting).toBe(1);
  });

  it('the oldest due job of a phone is the one a worker takes next, and the age moves on as it is sent', async () => {
    const [a] = phones;
    const ids = await add(a, 2);
    const first = await gauge.read();
    const firstDue = first.by_phone[0].oldest_due_at!;
    await new Promise((r) => setTimeout(r, 30));
    const third = Date.now();
    await add(a, 1);
    await purger.purgeIds(a, [ids[0]]);
    const later = new QueueDepthGauge(redis, namespace, 0);
    const after = (await later.read()).by_phone[0];
    expect(after.waiting).toBe(2);
    expect(after.oldest_due_at).toBeGreaterThanOrEqual(firstDue); // the second job, added at about the same time
    expect(after.oldest_due_at).toBeLessThan(third); // not the job added 30 ms later
    await purger.purgeAll(a);
    expect((await later.read()).by_phone).toEqual([]);
  });

  it('fails (no stale or made-up figure) when Redis fails, and recovers', async () => {
    const broken = new Redis(testEnv.redisUrl(), { maxRetriesPerRequest: 0, lazyConnect: true, enableOfflineQueue: false });
    const failing = new QueueDepthGauge(broken, namespace, 60_000);
    await expect(failing.read()).rejects.toThrow();
    // The failed command made the client connect; once it is up, the next read counts afresh.
    if (broken.status !== 'ready') await new Promise((resolve) => broken.once('ready', resolve));
    await add(phones[0], 2);
    expect((await failing.read()).waiting).toBe(2); // the failure was not cached
    broken.disconnect();
  });
});
