import { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { bullConnection, createLogger } from '@mapi/platform';
import { randomSuffix, testEnv } from '@mapi/testing';
import { workersAliveKey } from '../queues/keys';
import { QueuePurger } from '../queues/queue-purger';
import { SendQueues } from '../queues/send-queues';
import { GetQueueStatus } from '../usecases/queue-status/queue-status.usecase';
import { SendProcessor } from './send-processor';
import { SendWorkers } from './send-workers';
import { FakeSession } from './testing/fake-session';

const logger = createLogger('queue-test', 'silent');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(check: () => Promise<boolean> | boolean, ms = 15_000, what = 'condition') {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

/** Idle phone workers are closed and reopened on demand (real Redis, real BullMQ workers). */
describe('SendWorkers: idle workers', () => {
  let redis: Redis;
  let queues: SendQueues;
  let session: FakeSession;
  let namespace: string;
  let phones: string[];
  const running: SendWorkers[] = [];
  const org = randomUUID();

  const startWorkers = async (idleMs: number, scanMs = 50) => {
    const processor = new SendProcessor(queues, session, { jitterMs: 5, phoneRetryMs: 200, maxWaitMs: 60_000, holdAfterSendMs: 0 }, logger);
    const workers = new SendWorkers(
      queues,
      processor,
      new QueuePurger(queues),
      { namespace, connection: bullConnection(testEnv.redisUrl()), intervalMs: 1, lockMs: 5_000, scanMs, idleMs },
      logger,
    );
    running.push(workers);
    await workers.start();
    return workers;
  };
  const add = async (phoneId: string, n: number) => {
    const jobs = Array.from({ length: n }, () => ({ id: randomUUID(), chat_id: '4915112345678@c.us', content: { text: 'hello' } }));
    await queues.add(org, phoneId, jobs, null);
    return jobs.map((j) => j.id);
  };
  const completed = async (phoneId: string) => (await queues.queue(phoneId).getJobCounts('completed')).completed;
  const workersOf = (phoneId: string) => queues.queue(phoneId).getWorkersCount();

  beforeEach(() => {
    redis = new Redis(testEnv.redisUrl(), { maxRetriesPerRequest: null });
    namespace = `${testEnv.namespace()}-qi-${randomSuffix(3)}`;
    queues = new SendQueues(redis, { namespace, attempts: 3, backoffMs: 50, keepFinishedSeconds: 600 });
    session = new FakeSession();
    phones = [`phone-${randomSuffix(6)}`, `phone-${randomSuffix(6)}`];
  });

  afterEach(async () => {
    await Promise.all(running.splice(0).map((w) => w.stop()));
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

  it("closes a phone's worker once its queue stayed empty for the idle time, and reopens it when a job arrives", async () => {
    const [a, b] = phones;
    const first = await add(a, 3);
    const status = async () => (await new GetQueueStatus(queues).execute({ ctx: { phone: { phone_id: a } } } as never)).is_running;
    expect(await status()).toBe(false); // jobs waiting, but no send-worker process runs
    const workers = await startWorkers(400);
    expect(workers.phones).toEqual([a]); // b has no queue yet: no worker
    await until(async () => (await completed(a)) === 3, 15_000, '3 sent');
    const emptySince = Date.now();
    await until(() => workers.phones.length === 0, 5_000, 'idle close');
    expect(Date.now() - emptySince).toBeGreaterThanOrEqual(300); // not before the idle time (less one scan)
    expect(await workersOf(a)).toBe(0); // its BullMQ worker (and blocking connection) is gone

    // GET /queue still says the queue is served: the worker process is alive and reopens on demand.
    expect(await status()).toBe(true);
    expect(await redis.exists(workersAliveKey(namespace))).toBe(1);

    const later = [...(await add(a, 2)), ...(await add(b, 2))];
    await until(async () => (await completed(a)) === 5 && (await completed(b)) === 2, 15_000, 'sent after reopening');
    expect(session.sends.map((s) => s.id).sort()).toEqual([...first, ...later].sort());
    expect(session.sentIds.size).toBe(7);
  });

  it('a queue with a job scheduled for later keeps its worker (BullMQ workers promote delayed jobs)', async () => {
    const [a] = phones;
    await queues.add(org, a, [{ id: randomUUID(), chat_id: '1@c.us', content: { text: 'later' }, notBefore: Date.now() + 1_500 }], null);
    const workers = await startWorkers(100);
    await sleep(700);
    expect(workers.phones).toEqual([a]);
    await until(async () => (await completed(a)) === 1, 10_000, 'the scheduled job sent');
  });

  it('jobs arriving around the moments workers close (two processes): each is sent exactly once, none is lost', async () => {
    const [a, b] = phones;
    const p1 = await startWorkers(60, 20);
    const p2 = await startWorkers(60, 20);
    const closes = { n: 0 };
    const watch = setInterval(() => {
      if (p1.phones.length + p2.phones.length === 0) closes.n++;
    }, 5);
    const ids: string[] = [];
    try {
      for (let round = 0; round < 25; round++) {
        ids.push(...(await add(round % 3 === 0 ? b : a, 1 + (round % 2))));
        await sleep(40 + ((round * 37) % 90)); // 40–130 ms: before, at and after the 60 ms idle time
      }
      await until(async () => (await completed(a)) + (await completed(b)) === ids.length, 20_000, 'every job sent');
    } finally {
      clearInterval(watch);
    }
    expect(closes.n).toBeGreaterThan(0); // workers really were closed (and reopened) in between
    const sent = session.sends.map((s) => s.id);
    expect(sent.sort()).toEqual([...ids].sort());
    expect(new Set(sent).size).toBe(sent.length);
    const failed = (await queues.queue(a).getJobCounts('failed')).failed + (await queues.queue(b).getJobCounts('failed')).failed;
    expect(failed).toBe(0);
  });

  it('with idle time 0, workers are never closed', async () => {
    const [a] = phones;
    await add(a, 1);
    const workers = await startWorkers(0);
    await until(async () => (await completed(a)) === 1, 10_000, 'sent');
    await sleep(400);
    expect(workers.phones).toEqual([a]);
  });
});
