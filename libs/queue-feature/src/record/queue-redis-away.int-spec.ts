import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { createLogger, unavailableDependency } from '@mapi/platform';
import { PrivateRedis, useTestDatabase } from '@mapi/testing';
import type { NewSendJob } from '../queues/send-job';
import { SendQueues } from '../queues/send-queues';
import { QueueRebuild } from './queue-rebuild';
import { SendRecord, type RecordedJob } from './send-record';

jest.setTimeout(60_000);

const ORG = randomUUID();
const job = (id: string): NewSendJob => ({ id, chat_id: '15550002222@c.us', content: { text: `hello ${id}` } });

/** The queue service's request connection (libs/queue-feature/src/bootstrap.ts): no offline queue, no retries. */
const failFast = (url: string) => new Redis(url, { maxRetriesPerRequest: 0, enableOfflineQueue: false, lazyConnect: true });

const ready = async (redis: Redis) => {
  const deadline = Date.now() + 10_000;
  while (redis.status !== 'ready') {
    if (Date.now() > deadline) throw new Error(`redis not ready (${redis.status})`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

/**
 * While Redis is away the queue's requests fail at once as "Redis unavailable" (503), not after the
 * outage: a send refused before any of its jobs reached Redis is taken back from the record; one
 * that reached Redis in part is accepted, and the next rebuild check queues the rest, even when Redis
 * comes back as the same run (its marker still valid).
 */
describe('send queues while Redis is away (integration)', () => {
  const t = useTestDatabase('queue_redis_away');
  const logger = createLogger('queue-away-spec', 'warn', new Writable({ write: (_c, _e, done) => done() }));
  const namespace = `qaway${randomUUID().slice(0, 6)}`;
  const phone = randomUUID();
  let server: PrivateRedis;
  let redis: Redis;
  let queues: SendQueues;
  let record: SendRecord;
  let rebuild: QueueRebuild;
  /** Runs once after the record's next add, before the put. */
  let afterRecord: (() => Promise<void>) | undefined;
  /** Drops the client's connection (it reconnects to the same server at once); resolves when it is back. */
  let reconnected: Promise<unknown> = Promise.resolve();
  const drop = async () => {
    reconnected = once(redis, 'ready');
    redis.disconnect(true);
  };

  const inRedis = async () => (await queues.queue(phone).getJobs(['prioritized', 'wait', 'delayed'])).map((j) => j.id).sort();
  const onRecord = async () =>
    (await t.prisma.$queryRaw<{ job_id: string }[]>`SELECT job_id FROM send_jobs WHERE phone_id = ${phone} ORDER BY seq`).map(
      (r) => r.job_id,
    );

  beforeAll(async () => {
    server = await PrivateRedis.start();
    redis = failFast(server.url);
    redis.on('error', () => undefined);
    await redis.connect();
    const real = new SendRecord(t.prisma);
    record = Object.assign(Object.create(real) as SendRecord, {
      add: async (jobs: RecordedJob[]) => {
        const fresh = await real.add(jobs);
        const hook = afterRecord;
        afterRecord = undefined;
        await hook?.();
        return fresh;
      },
    });
    queues = new SendQueues(redis, { namespace, attempts: 3, backoffMs: 100, keepFinishedSeconds: 3_600, record });
    rebuild = new QueueRebuild(queues, record, { namespace, maxWaitMs: 3_600_000, keepFinishedMs: 3_600_000 }, logger);
    await rebuild.ensure(); // the marker, for this run of the server
    await queues.add(ORG, phone, [job('j1')], null);
  });
  afterAll(async () => {
    await queues.close();
    redis.disconnect();
    await server.destroy();
  });

  it('refuses at once while Redis is down, as Redis unavailable, with nothing on record', async () => {
    await server.stop();
    const started = Date.now();
    const error = await queues.add(ORG, phone, [job('j2')], null).then(
      () => null,
      (e: unknown) => e,
    );
    expect(Date.now() - started).toBeLessThan(500);
    expect(unavailableDependency(error)).toBe('redis');
    expect(await onRecord()).toEqual(['j1']);
    await server.start();
    await ready(redis);
    expect(await inRedis()).toEqual(['j1']);
  });

  it('refused before any job reached Redis: the send fails as Redis unavailable and the record takes it back', async () => {
    expect(await rebuild.ensure()).not.toBeNull(); // the restart above changed the run: marker set again
    afterRecord = drop; // the connection drops between the record and the put
    const error = await queues.add(ORG, phone, [job('j3')], null).then(
      () => null,
      (e: unknown) => e,
    );
    expect(unavailableDependency(error)).toBe('redis');
    expect(await onRecord()).toEqual(['j1']);
    await reconnected;
    expect(await rebuild.ensure()).toBeNull(); // nothing owed
    expect(await inRedis()).toEqual(['j1']);
  });

  /** The next put of the phone's queue drops the connection after its first chunk went in. */
  const cutAfterFirstChunk = () => {
    const q = queues.queue(phone);
    const addBulk = q.addBulk.bind(q);
    q.addBulk = async (jobs) => {
      const added = await addBulk(jobs);
      q.addBulk = addBulk;
      await drop();
      return added;
    };
  };
  const broadcast = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => job(`${prefix}${i}`));

  it('a broadcast cut after its first chunk: accepted, and the rest queued by the next check on the same run', async () => {
    cutAfterFirstChunk();
    const positions = await queues.add(ORG, phone, broadcast('b', 1_200), 'bc-1');
    expect(positions[1_199]).toBe(1_201); // numbered after j1 and the withdrawn j3's number
    expect(await onRecord()).toHaveLength(1_201);
    await reconnected;
    expect(await inRedis()).toHaveLength(1_001); // same server, same run: only the failed put knows
    expect(await rebuild.ensure()).toBe(1_201);
    expect(await inRedis()).toHaveLength(1_201);
    expect((await queues.queue(phone).getJob('b1199'))?.data).toMatchObject({ seq: 1_202, broadcast_id: 'bc-1', body: 'hello b1199' });
    expect(await rebuild.ensure()).toBeNull(); // once
  });

  it('a check that cannot run keeps the debt for the next one', async () => {
    cutAfterFirstChunk();
    await queues.add(ORG, phone, broadcast('c', 1_001), 'bc-2');
    await reconnected;
    const ended = once(redis, 'end');
    redis.disconnect(); // the check runs while the connection is down
    await ended;
    await expect(rebuild.ensure()).rejects.toThrow();
    await redis.connect();
    expect(await rebuild.ensure()).toBe(2_202);
    expect(await inRedis()).toHaveLength(2_202);
  });
});
