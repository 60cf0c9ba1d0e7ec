import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { createLogger } from '@mapi/platform';
import { PrivateRedis, useTestDatabase } from '@mapi/testing';
import { QueuePurger } from '../queues/queue-purger';
import type { NewSendJob } from '../queues/send-job';
import { SendQueues } from '../queues/send-queues';
import { QueueRebuild, recordMarkerKey } from './queue-rebuild';
import { SendRecord } from './send-record';

jest.setTimeout(60_000);

const ORG = randomUUID();
const [A, B, C] = [randomUUID(), randomUUID(), randomUUID()];
const job = (id: string, notBefore?: number): NewSendJob => ({
  id,
  chat_id: '15550001111@c.us',
  content: { text: `hello ${id}` },
  notBefore,
});

/**
 * The send queues against their Postgres record (docs/decisions/0077) with a redis-server of the
 * test's own: restarted empty, what was accepted and is neither sent, failed for good nor purged is
 * queued again as it was — same ids, numbers and data — and the phones' counters go on from where
 * they were; restarted with its data, nothing is queued twice.
 */
describe('send queue rebuilt from its record (integration)', () => {
  const t = useTestDatabase('queue_record');
  const logger = createLogger('queue-rebuild-spec', 'warn', new Writable({ write: (_c, _e, done) => done() }));
  const namespace = `qrec${randomUUID().slice(0, 6)}`;
  let server: PrivateRedis;
  let redis: Redis;
  let queues: SendQueues;
  let record: SendRecord;
  let rebuild: QueueRebuild;

  /** Every job of a phone in Redis not yet taken, by id, with its sequence number. */
  const unsent = async (phone: string) => {
    const jobs = await queues.queue(phone).getJobs(['prioritized', 'wait', 'delayed']);
    return Object.fromEntries(jobs.map((j) => [j.id, j.data.seq])) as Record<string, number>;
  };

  beforeAll(async () => {
    server = await PrivateRedis.start();
    redis = new Redis(server.url, { maxRetriesPerRequest: null });
    record = new SendRecord(t.prisma);
    queues = new SendQueues(redis, { namespace, attempts: 3, backoffMs: 100, keepFinishedSeconds: 3_600, record });
    rebuild = new QueueRebuild(queues, record, { namespace, maxWaitMs: 3_600_000, keepFinishedMs: 3_600_000 }, logger);
  });
  afterAll(async () => {
    await queues.close();
    redis.disconnect();
    await server.destroy();
  });

  it('marks a Redis that matches the record, once', async () => {
    expect(await rebuild.ensure()).toBe(0);
    expect(await redis.get(recordMarkerKey(namespace))).toMatch(/^\w+$/);
    expect(await rebuild.ensure()).toBeNull();
  });

  it('restarted empty: queues again exactly the pending jobs, as they were, and numbering goes on', async () => {
    const purger = new QueuePurger(queues);
    await queues.add(
      ORG,
      A,
      ['a1', 'a2', 'a3', 'a4'].map((id) => job(id)),
      null,
    );
    await queues.add(
      ORG,
      A,
      ['b1', 'b2'].map((id) => job(id)),
      'bc-1',
    );
    await queues.add(
      ORG,
      A,
      ['c1', 'c2'].map((id) => job(id)),
      'bc-2',
    );
    await queues.add(ORG, B, [job('later', Date.now() + 3_600_000)], null);
    await queues.add(ORG, C, [job('old1'), job('old2')], null);
    await purger.purgeAll(C);
    await new Promise((r) => setTimeout(r, 5)); // the purge's time is before the next job's
    await queues.add(ORG, C, [job('new1')], null);
    await purger.purgeIds(A, ['a2']);
    await purger.purgeBroadcast(A, 'bc-2');
    await record.finished([{ phone_id: A, job_id: 'a1' }]); // sent: the worker told the record
    const before = { A: await unsent(A), B: await unsent(B), C: await unsent(C) };
    expect(before.A).toEqual({ a1: 1, a3: 3, a4: 4, b1: 5, b2: 6 }); // a1 is still in Redis here (no worker ran)

    await redis.quit();
    await server.restart({ empty: true });
    redis = new Redis(server.url, { maxRetriesPerRequest: null });
    await queues.close();
    queues = new SendQueues(redis, { ...queues.options, record });
    rebuild = new QueueRebuild(queues, record, { namespace, maxWaitMs: 3_600_000, keepFinishedMs: 3_600_000 }, logger);
    expect(await unsent(A)).toEqual({});

    expect(await rebuild.ensure()).toBe(6);
    expect(await unsent(A)).toEqual({ a3: 3, a4: 4, b1: 5, b2: 6 });
    expect(await unsent(B)).toEqual({ later: 1 });
    expect((await queues.queue(B).getJob('later'))?.opts.delay).toBeGreaterThan(3_000_000);
    expect(await unsent(C)).toEqual({ new1: 3 });
    expect((await queues.queue(A).getJob('b1'))?.data).toMatchObject({
      org_id: ORG,
      phone_id: A,
      broadcast_id: 'bc-1',
      body: 'hello b1',
      seq: 5,
    });
    // The broadcast's index is back (a purge of it reaches its jobs), and numbering goes on past the record.
    await queues.add(ORG, A, [job('a9')], null);
    expect((await unsent(A)).a9).toBe(9);
    await new QueuePurger(queues).purgeBroadcast(A, 'bc-1');
    expect(Object.keys(await unsent(A)).sort()).toEqual(['a3', 'a4', 'a9']);
  });

  it('a repeated id: not queued again once finished; queued when on record but missing from Redis', async () => {
    await queues.add(ORG, A, [job('a1'), job('a10')], null);
    expect(Object.keys(await unsent(A)).sort()).toEqual(['a10', 'a3', 'a4', 'a9']);
    // a process that died between the record and Redis: the client's retry (same id) queues it
    await record.add([
      {
        phone_id: A,
        job_id: 'a11',
        org_id: ORG,
        seq: 12,
        chat_id: 'x@c.us',
        broadcast_id: null,
        data: { org_id: ORG, phone_id: A, chat_id: 'x@c.us', content: { text: 'hi' }, body: 'hi', broadcast_id: null, seq: 12, trace: {} },
        not_before: null,
      },
    ]);
    await queues.add(ORG, A, [job('a11')], null);
    await queues.add(ORG, A, [job('a10')], null); // already in Redis: BullMQ keeps one
    expect(Object.keys(await unsent(A)).sort()).toEqual(['a10', 'a11', 'a3', 'a4', 'a9']);
    await queues.queue(A).remove('a11'); // as if sent: out of the way of the next case
    await record.finished([{ phone_id: A, job_id: 'a11' }]);
  });

  it('restarted with its data: rebuilt against the record, nothing twice', async () => {
    const before = { A: await unsent(A), B: await unsent(B), C: await unsent(C) };
    await redis.quit();
    await server.restart();
    redis = new Redis(server.url, { maxRetriesPerRequest: null });
    await queues.close();
    queues = new SendQueues(redis, { ...queues.options, record });
    rebuild = new QueueRebuild(queues, record, { namespace, maxWaitMs: 3_600_000, keepFinishedMs: 3_600_000 }, logger);
    expect(await rebuild.ensure()).toBe(6); // run_id changed: checked against the record
    expect({ A: await unsent(A), B: await unsent(B), C: await unsent(C) }).toEqual(before);
  });

  it('prunes what no rebuild can want', async () => {
    await t.prisma.$executeRaw`UPDATE send_jobs SET finished_at = now() - interval '2 hours' WHERE job_id = 'a1'`;
    await t.prisma.$executeRaw`UPDATE send_jobs SET created_at = now() - interval '3 hours' WHERE job_id = 'a3'`;
    expect(await rebuild.pruneNow()).toBe(2);
    expect(await rebuild.pruneNow()).toBe(0); // at most every 10 minutes
    const left = await t.prisma.$queryRaw<{ job_id: string }[]>`SELECT job_id FROM send_jobs WHERE phone_id = ${A} ORDER BY seq`;
    expect(left.map((r) => r.job_id)).not.toEqual(expect.arrayContaining(['a1', 'a3']));
    expect(left.map((r) => r.job_id)).toEqual(expect.arrayContaining(['a4', 'a9']));
  });
});
