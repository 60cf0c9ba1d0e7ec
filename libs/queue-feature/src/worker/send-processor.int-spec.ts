import { Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { bullConnection, createLogger, bullPrefix } from '@mapi/platform';
import { randomSuffix, testEnv } from '@mapi/testing';
import { sendQueueName } from '../queues/keys';
import { QueuePurger } from '../queues/queue-purger';
import type { SendJobData } from '../queues/send-job';
import { SendQueues } from '../queues/send-queues';
import { PURGED_REASON, SendProcessor } from './send-processor';
import { FakeSession } from './testing/fake-session';

const logger = createLogger('queue-test', 'silent');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(check: () => Promise<boolean> | boolean, ms = 10_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await sleep(20);
  }
}

describe('SendProcessor with BullMQ workers (real Redis)', () => {
  let redis: Redis;
  let queues: SendQueues;
  let purger: QueuePurger;
  let session: FakeSession;
  let namespace: string;
  let phone: string;
  const workers: Worker[] = [];
  const org = randomUUID();

  const startWorker = (options: { jitterMs: number; intervalMs?: number; holdAfterSendMs?: number }) => {
    const processor = new SendProcessor(
      queues,
      session,
      { jitterMs: options.jitterMs, phoneRetryMs: 200, maxWaitMs: 60_000, holdAfterSendMs: options.holdAfterSendMs ?? 0 },
      logger,
    );
    const w = new Worker<SendJobData>(sendQueueName(phone), (job) => processor.process(job), {
      connection: bullConnection(testEnv.redisUrl()),
      prefix: bullPrefix(namespace),
      concurrency: 1,
      limiter: { max: 1, duration: options.intervalMs ?? 1 },
      lockDuration: 2_000,
      stalledInterval: 1_000,
    });
    workers.push(w);
    return w;
  };
  const add = async (n: number, broadcastId: string | null = null) => {
    const jobs = Array.from({ length: n }, () => ({ id: randomUUID(), chat_id: '4915112345678@c.us', content: { text: 'hello' } }));
    await queues.add(org, phone, jobs, broadcastId);
    return jobs.map((j) => j.id);
  };
  const job = (id: string) => queues.queue(phone).getJob(id) as Promise<Job<SendJobData> | undefined>;

  beforeEach(() => {
    redis = new Redis(testEnv.redisUrl(), { maxRetriesPerRequest: null });
    namespace = `${testEnv.namespace()}-qw-${randomSuffix(3)}`;
    queues = new SendQueues(redis, { namespace, attempts: 3, backoffMs: 50, keepFinishedSeconds: 600 });
    purger = new QueuePurger(queues);
    session = new FakeSession();
    phone = `phone-${randomSuffix(6)}`;
  });

  afterEach(async () => {
    await Promise.all(workers.splice(0).map((w) => w.close(true)));
    await queues
      .queue(phone)
      .obliterate({ force: true })
      .catch(() => undefined);
    await queues.close();
    redis.disconnect();
  });

  it("sends each job once, in order, with its id as sent_message_id, and keeps the network's ids", async () => {
    const ids = await add(3);
    startWorker({ jitterMs: 0 });
    await until(async () => (await queues.queue(phone).getJobCounts('completed')).completed === 3);
    expect(session.sends.map((s) => s.id)).toEqual(ids);
    const done = await job(ids[0]);
    expect(done?.returnvalue).toMatchObject({
      unique_id: session.sentIds.get(ids[0]),
      message_id: `true_4915112345678@c.us_${session.sentIds.get(ids[0])}`,
      duplicate: false,
    });
  });

  it('paces a phone: at least the interval between two submissions', async () => {
    await add(3);
    startWorker({ jitterMs: 0, intervalMs: 300 });
    await until(() => session.sends.length === 3);
    // The limiter spaces the jobs' starts; a send lands after its job's own work, which a loaded machine
    // stretches unevenly (CI saw 243 ms at 300): each gap at least half the interval, the run 3/4 of it.
    const s = session.sends;
    for (let i = 1; i < s.length; i++) expect(s[i].at - s[i - 1].at).toBeGreaterThanOrEqual(150);
    expect(s[2].at - s[0].at).toBeGreaterThanOrEqual(450);
  });

  it('a disconnected phone puts the job back without using an attempt, unclaimed (still purgeable)', async () => {
    session.next = [
      { ok: false, reason: 'disconnected', message: 'not connected' },
      { ok: false, reason: 'disconnected', message: 'not connected' },
    ];
    const [id] = await add(1);
    startWorker({ jitterMs: 0 });
    await until(async () => (await job(id))?.finishedOn !== undefined);
    const done = await job(id);
    expect(done?.returnvalue?.unique_id).toBe(session.sentIds.get(id));
    expect(done?.attemptsMade).toBe(1);
  });

  it('a session whose database is away waits without using an attempt, however many times (attempts are 3)', async () => {
    const away = { ok: false as const, reason: 'unavailable' as const, message: "Can't reach database server" };
    session.next = [away, away, away, away, away];
    const [id] = await add(1);
    startWorker({ jitterMs: 0 });
    await until(async () => (await job(id))?.finishedOn !== undefined);
    const done = await job(id);
    expect(done?.failedReason ?? null).toBeNull();
    expect(done?.returnvalue?.unique_id).toBe(session.sentIds.get(id));
    expect(done?.attemptsMade).toBe(1);
  });

  it("an error answer retries with backoff and then succeeds; the connector's dedup keeps one message", async () => {
    session.next = [{ ok: false, reason: 'error', message: 'boom' }];
    const [id] = await add(1);
    startWorker({ jitterMs: 0 });
    await until(async () => (await job(id))?.returnvalue !== null && (await job(id))?.returnvalue !== undefined);
    expect((await job(id))?.attemptsMade).toBe(2);
    expect(session.sends.filter((s) => s.id === id)).toHaveLength(1);
  });

  it('a worker killed after submitting: the job is taken up again and resolves to the same unique_id', async () => {
    const [id] = await add(1);
    const first = startWorker({ jitterMs: 0, holdAfterSendMs: 60_000 });
    await until(() => session.sends.length === 1);
    await first.close(true); // dies without finishing: its lock expires
    startWorker({ jitterMs: 0 });
    await until(async () => Boolean((await job(id))?.returnvalue), 15_000);
    const done = await job(id);
    expect(done?.returnvalue).toMatchObject({ unique_id: session.sentIds.get(id), duplicate: true });
    expect(new Set(session.sends.map((s) => s.id))).toEqual(new Set([id]));
    expect(session.sentIds.size).toBe(1);
  });

  it('purge while the worker holds a job it has not submitted yet: that job is never sent', async () => {
    const ids = await add(5);
    const w = startWorker({ jitterMs: 1_500 });
    await new Promise<void>((resolve) => w.once('active', () => resolve()));
    await purger.purgeAll(phone);
    await sleep(2_500);
    expect(session.sends).toEqual([]);
    await purger.sweep(phone);
    const held = (await Promise.all(ids.map(job))).filter(Boolean);
    expect(held).toHaveLength(1);
    expect(held[0]?.failedReason).toBe(PURGED_REASON);
  });

  it.each(['all', 'queue_ids', 'broadcast'] as const)(
    'purge (%s) racing two busy workers: nothing covered is sent after it answers',
    async (mode) => {
      const ids = await add(300, 'race');
      startWorker({ jitterMs: 3 });
      startWorker({ jitterMs: 3 });
      await until(() => session.sends.length >= 20);
      if (mode === 'all') await purger.purgeAll(phone);
      else if (mode === 'broadcast') await purger.purgeBroadcast(phone, 'race');
      else await purger.purgeIds(phone, ids);
      const answeredAt = Date.now();
      const sentAtAnswer = session.sends.length;
      await sleep(500);
      // At most the submissions already under way (one per worker) land after the answer, and each was claimed before it.
      const late = session.sends.slice(sentAtAnswer);
      expect(late.length).toBeLessThanOrEqual(2);
      for (const s of late) {
        const claimedAt = Number(await redis.hget(queues.keys(phone).job(s.id), 'mapi_claimed'));
        expect(claimedAt).toBeLessThanOrEqual(answeredAt);
      }
      expect(session.sends.length).toBeLessThan(300);
      expect(new Set(session.sends.map((s) => s.id)).size).toBe(session.sends.length);
      const c = await queues.queue(phone).getJobCounts('prioritized', 'waiting', 'delayed', 'active');
      expect(c.prioritized + c.waiting + c.delayed + c.active).toBe(0);
    },
  );
});
