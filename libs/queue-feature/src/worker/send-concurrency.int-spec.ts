import { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { bullConnection, createLogger } from '@mapi/platform';
import { randomSuffix, testEnv } from '@mapi/testing';
import { QueuePurger } from '../queues/queue-purger';
import { SendQueues } from '../queues/send-queues';
import { PhonePaces } from './phone-pace';
import { SendProcessor } from './send-processor';
import { SendWorkers } from './send-workers';
import { SlowSession } from './testing/slow-session';

const logger = createLogger('queue-test', 'silent');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(check: () => Promise<boolean> | boolean, ms = 20_000, what = 'condition') {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

/**
 * A Cloud API phone with several sends in flight (CLOUD_API_SEND_CONCURRENCY), against a session whose
 * every send takes DELAY_MS (a Graph API round trip): N sends to N chats finish in well under N × DELAY_MS,
 * while two sends to one chat are never in flight together and go in queue order, also when Meta
 * throttles sends in flight (they go back, in order, without using an attempt). A linked device still
 * sends one at a time. Real Redis and BullMQ workers.
 */
describe('SendWorkers: a Cloud API phone sends several at once, one per chat', () => {
  let redis: Redis;
  let queues: SendQueues;
  let namespace: string;
  let cloud: string;
  let sandbox: string;
  const running: SendWorkers[] = [];
  const org = randomUUID();
  const K = 8;

  const startWorkers = async (session: SlowSession, concurrency = K) => {
    const processor = new SendProcessor(
      queues,
      session,
      { jitterMs: 0, phoneRetryMs: 200, maxWaitMs: 60_000, holdAfterSendMs: 0, throttleBackoffMs: 150 },
      logger,
    );
    const paces = new PhonePaces({ intervalMs: 10, cloudApiRatePerSecond: 80, cloudApiConcurrency: concurrency }, async (phoneId) =>
      phoneId === cloud ? 'cloud_api' : 'sandbox',
    );
    const workers = new SendWorkers(
      queues,
      processor,
      new QueuePurger(queues),
      { namespace, connection: bullConnection(testEnv.redisUrl()), intervalMs: 10, paces, lockMs: 5_000, scanMs: 50, idleMs: 0 },
      logger,
    );
    running.push(workers);
    await workers.start();
    return workers;
  };
  /** `n` jobs to `chats` chats in turn: the ids queued to each chat, in queue order. */
  const add = async (phoneId: string, n: number, chats: number) => {
    const jobs = Array.from({ length: n }, (_, i) => ({
      id: randomUUID(),
      chat_id: `1555100${i % chats}@c.us`,
      content: { text: `m${i}` },
    }));
    await queues.add(org, phoneId, jobs, null);
    const byChat = new Map<string, string[]>();
    for (const j of jobs) byChat.set(j.chat_id, [...(byChat.get(j.chat_id) ?? []), j.id]);
    return { ids: jobs.map((j) => j.id), byChat };
  };
  const completed = async (phoneId: string) => (await queues.queue(phoneId).getJobCounts('completed')).completed;

  beforeEach(() => {
    redis = new Redis(testEnv.redisUrl(), { maxRetriesPerRequest: null });
    namespace = `${testEnv.namespace()}-qc-${randomSuffix(3)}`;
    queues = new SendQueues(redis, { namespace, attempts: 3, backoffMs: 50, keepFinishedSeconds: 600 });
    cloud = `phone-${randomSuffix(6)}`;
    sandbox = `phone-${randomSuffix(6)}`;
  });

  afterEach(async () => {
    await Promise.all(running.splice(0).map((w) => w.stop()));
    for (const p of [cloud, sandbox])
      await queues
        .queue(p)
        .obliterate({ force: true })
        .catch(() => undefined);
    const own = await redis.keys(`${namespace}:*`);
    if (own.length) await redis.del(...own);
    await queues.close();
    redis.disconnect();
  });

  it('sends N messages to N chats in well under N round trips, at most K in flight', async () => {
    const N = 40;
    const DELAY_MS = 150;
    const session = new SlowSession(DELAY_MS);
    const { ids } = await add(cloud, N, N);
    await startWorkers(session);
    await until(async () => (await completed(cloud)) === N, 30_000, `${N} sends`);
    const starts = session.sends.map((s) => s.started);
    const elapsed = Math.max(...session.sends.map((s) => s.ended)) - Math.min(...starts);
    // one at a time it takes N × 150 = 6 s; K = 8 at once ≈ 0.75 s (80/s would allow 0.5 s)
    expect(elapsed).toBeLessThan((N * DELAY_MS) / 3);
    expect(session.maxInFlight.get(cloud)).toBeGreaterThan(1);
    expect(session.maxInFlight.get(cloud)).toBeLessThanOrEqual(K);
    expect([...session.sentIds.keys()].sort()).toEqual([...ids].sort()); // each once
    expect(session.sends).toHaveLength(N);
  }, 60_000);

  it('never has two sends to one chat in flight together, and sends each chat in queue order', async () => {
    const DELAY_MS = 40;
    const session = new SlowSession(DELAY_MS);
    const { byChat } = await add(cloud, 90, 3); // three chats, interleaved
    await startWorkers(session);
    await until(async () => (await completed(cloud)) === 90, 30_000, '90 sends');
    expect(session.maxPerChat).toBe(1);
    expect(session.maxInFlight.get(cloud)).toBeGreaterThan(1); // the three chats went side by side
    expect(session.byChat(cloud)).toEqual(byChat);
    for (const chat of byChat.keys()) {
      const sends = session.sends.filter((s) => s.chat === chat);
      for (let i = 1; i < sends.length; i++) expect(sends[i].started).toBeGreaterThanOrEqual(sends[i - 1].ended);
    }
  }, 60_000);

  it('puts sends throttled in flight back in queue order, behind them their chats’ later ones, without using attempts', async () => {
    const session = new SlowSession(60);
    session.throttle(10); // Meta throttles the first sends in flight
    const { ids, byChat } = await add(cloud, 40, 2); // two chats: each has several jobs in flight together
    await startWorkers(session);
    await until(async () => (await completed(cloud)) === 40, 30_000, 'sent after the throttling');
    expect(session.answers.length).toBeGreaterThan(0);
    expect(session.maxPerChat).toBe(1);
    expect(session.byChat(cloud)).toEqual(byChat); // nothing overtook a throttled send of its chat
    expect(session.sends).toHaveLength(40); // each once
    for (const id of ids) {
      const job = await queues.queue(cloud).getJob(id);
      expect(job?.attemptsMade).toBe(1);
      expect(job?.failedReason ?? null).toBeNull();
    }
  }, 60_000);

  it('keeps a linked device at one send at a time whatever the Cloud API setting', async () => {
    const session = new SlowSession(40);
    const { ids } = await add(sandbox, 6, 6);
    await startWorkers(session, 16);
    await until(async () => (await completed(sandbox)) === 6, 20_000, 'the sandbox sends');
    expect(session.maxInFlight.get(sandbox)).toBe(1);
    expect(session.sends.map((s) => s.id)).toEqual(ids);
  }, 30_000);
});
