import { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { randomSuffix, testEnv } from '@mapi/testing';
import { CLAIM } from './fence-scripts';
import { QueuePurger } from './queue-purger';
import { SendQueues } from './send-queues';

/** The purge scripts and the fence against real Redis (BullMQ 6.7's key layout). */
describe('QueuePurger', () => {
  let redis: Redis;
  let queues: SendQueues;
  let purger: QueuePurger;
  const org = randomUUID();
  let phone: string;
  let otherPhone: string;

  const add = (phoneId: string, n: number, broadcastId: string | null = null, notBefore?: number) => {
    const jobs = Array.from({ length: n }, () => ({ id: randomUUID(), chat_id: '4915112345678@c.us', content: { text: 'hi' }, notBefore }));
    return queues.add(org, phoneId, jobs, broadcastId).then(() => jobs.map((j) => j.id));
  };
  const pending = async (phoneId: string) => {
    const c = await queues.queue(phoneId).getJobCounts('prioritized', 'waiting', 'delayed');
    return c.prioritized + c.waiting + c.delayed;
  };
  const exists = (phoneId: string, id: string) => redis.exists(queues.keys(phoneId).job(id));
  const claim = async (phoneId: string, id: string) => {
    const job = await queues.queue(phoneId).getJob(id);
    const k = queues.keys(phoneId);
    return CLAIM.run<number>(
      redis,
      [k.job(id), k.fenceAll, k.fenceIds, k.fenceBroadcasts],
      [id, job?.data.seq ?? 0, job?.data.broadcast_id ?? '', Date.now()],
    );
  };

  beforeEach(() => {
    redis = new Redis(testEnv.redisUrl(), { maxRetriesPerRequest: null });
    queues = new SendQueues(redis, {
      namespace: `${testEnv.namespace()}-qp-${randomSuffix(3)}`,
      attempts: 3,
      backoffMs: 100,
      keepFinishedSeconds: 600,
    });
    purger = new QueuePurger(queues);
    phone = `phone-${randomSuffix(6)}`;
    otherPhone = `phone-${randomSuffix(6)}`;
  });

  afterEach(async () => {
    for (const p of [phone, otherPhone])
      await queues
        .queue(p)
        .obliterate({ force: true })
        .catch(() => undefined);
    await queues.close();
    redis.disconnect();
  });

  it('numbers jobs in order and answers their places in line', async () => {
    const positions = await queues.add(
      org,
      phone,
      [
        { id: randomUUID(), chat_id: '1@c.us', content: { text: 'a' } },
        { id: randomUUID(), chat_id: '1@c.us', content: { text: 'b' } },
      ],
      null,
    );
    expect(positions).toEqual([1, 2]);
    expect(await queues.add(org, phone, [{ id: randomUUID(), chat_id: '1@c.us', content: { text: 'c' } }], null)).toEqual([3]);
    // Kept in the prioritized sorted set, not the wait list (removal cost O(log n)).
    expect(await redis.zcard(queues.keys(phone).unsent.prioritized)).toBe(3);
    expect(await redis.llen(queues.keys(phone).unsent.wait)).toBe(0);
  });

  it('mode queue_ids removes exactly those jobs (waiting and delayed), nothing of another phone', async () => {
    const ids = await add(phone, 10);
    const later = await add(phone, 3, null, Date.now() + 60_000);
    const others = await add(otherPhone, 5);
    const removed = await purger.purgeIds(phone, [ids[2], ids[7], later[1], randomUUID(), others[0]]);
    expect(removed).toBe(3);
    expect(await pending(phone)).toBe(10);
    for (const id of [ids[2], ids[7], later[1]]) expect(await exists(phone, id)).toBe(0);
    expect(await exists(phone, ids[0])).toBe(1);
    expect(await pending(otherPhone)).toBe(5);
    expect(await exists(otherPhone, others[0])).toBe(1);
  });

  it("mode broadcast removes that broadcast's jobs only", async () => {
    const before = await add(phone, 4);
    const b1 = await add(phone, 20, 'b-1');
    const b2 = await add(phone, 5, 'b-2');
    expect(await purger.purgeBroadcast(phone, 'b-1')).toBe(20);
    expect(await pending(phone)).toBe(9);
    for (const id of b1) expect(await exists(phone, id)).toBe(0);
    for (const id of [...before, ...b2]) expect(await exists(phone, id)).toBe(1);
  });

  it("mode all empties the phone's unsent states at once and deletes the job hashes in the sweep", async () => {
    const ids = [...(await add(phone, 30)), ...(await add(phone, 5, null, Date.now() + 60_000))];
    await add(otherPhone, 4);
    await purger.purgeAll(phone);
    expect(await pending(phone)).toBe(0);
    expect(await pending(otherPhone)).toBe(4);
    expect(await purger.sweep(phone)).toBe(2);
    for (const id of ids) expect(await exists(phone, id)).toBe(0);
    expect(await redis.exists(queues.keys(phone).trash)).toBe(0);
    // The queue works on: a job added after the purge is kept.
    await add(phone, 2);
    expect(await pending(phone)).toBe(2);
  });

  it('fences: a job covered by a purge can no longer be claimed; jobs after it can', async () => {
    const [a, b, c] = await add(phone, 3);
    const [d] = await add(phone, 1, 'bc');
    // Stand-ins for jobs a worker holds (still present, not in a removable state any more).
    const k = queues.keys(phone);
    await redis.zrem(k.unsent.prioritized, a, b, d);
    expect(await claim(phone, c)).toBe(1); // claimed before the purge: stays submittable
    await purger.purgeIds(phone, [a]);
    await purger.purgeBroadcast(phone, 'bc');
    expect(await claim(phone, a)).toBe(0);
    expect(await claim(phone, d)).toBe(0);
    expect(await claim(phone, b)).toBe(1);
    const [e] = await add(phone, 1);
    await redis.zrem(k.unsent.prioritized, e);
    await purger.purgeAll(phone);
    const [f] = await add(phone, 1);
    expect(await claim(phone, e)).toBe(0);
    expect(await claim(phone, c)).toBe(1);
    expect(await claim(phone, f)).toBe(1);
    expect(await claim(phone, randomUUID())).toBe(-1);
  });
});
