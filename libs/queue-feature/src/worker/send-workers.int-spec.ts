import { randomUUID } from 'node:crypto';
import { testEnv } from '@mapi/testing';
import { workersAliveKey } from '../queues/keys';
import { sendHarness, sleep, until } from '../testing/send-harness';
import { GetQueueStatus } from '../usecases/queue-status/queue-status.usecase';

/** Idle phone workers are closed and reopened on demand (real Redis, real BullMQ workers). */
describe('SendWorkers: idle workers', () => {
  const h = sendHarness(testEnv, { tag: 'qi', phones: 2, each: true });
  const startWorkers = (idleMs: number, scanMs = 50) => h.startWorkers({ processor: { jitterMs: 5 }, workers: { scanMs, idleMs } });
  const workersOf = (phoneId: string) => h.queues.queue(phoneId).getWorkersCount();

  it("closes a phone's worker once its queue stayed empty for the idle time, and reopens it when a job arrives", async () => {
    const [a, b] = h.phones;
    const first = await h.add(a, 3);
    const status = async () => (await new GetQueueStatus(h.queues).execute({ ctx: { phone: { phone_id: a } } } as never)).is_running;
    expect(await status()).toBe(false); // jobs waiting, but no send-worker process runs
    const workers = await startWorkers(400);
    expect(workers.phones).toEqual([a]); // b has no queue yet: no worker
    await until(async () => (await h.completed(a)) === 3, 15_000, '3 sent');
    const emptySince = Date.now();
    await until(() => workers.phones.length === 0, 5_000, 'idle close');
    expect(Date.now() - emptySince).toBeGreaterThanOrEqual(300); // not before the idle time (less one scan)
    expect(await workersOf(a)).toBe(0); // its BullMQ worker (and blocking connection) is gone

    // GET /queue still says the queue is served: the worker process is alive and reopens on demand.
    expect(await status()).toBe(true);
    expect(await h.redis.exists(workersAliveKey(h.namespace))).toBe(1);

    const later = [...(await h.add(a, 2)), ...(await h.add(b, 2))];
    await until(async () => (await h.completed(a)) === 5 && (await h.completed(b)) === 2, 15_000, 'sent after reopening');
    expect(h.session.sends.map((s) => s.id).sort()).toEqual([...first, ...later].sort());
    expect(h.session.sentIds.size).toBe(7);
  });

  it('a queue with a job scheduled for later keeps its worker (BullMQ workers promote delayed jobs)', async () => {
    const [a] = h.phones;
    await h.queues.add(
      h.org,
      a,
      [{ id: randomUUID(), chat_id: '1@c.us', content: { text: 'later' }, notBefore: Date.now() + 1_500 }],
      null,
    );
    const workers = await startWorkers(100);
    await sleep(700);
    expect(workers.phones).toEqual([a]);
    await until(async () => (await h.completed(a)) === 1, 10_000, 'the scheduled job sent');
  });

  it('jobs arriving around the moments workers close (two processes): each is sent exactly once, none is lost', async () => {
    const [a, b] = h.phones;
    const p1 = await startWorkers(60, 20);
    const p2 = await startWorkers(60, 20);
    const closes = { n: 0 };
    const watch = setInterval(() => {
      if (p1.phones.length + p2.phones.length === 0) closes.n++;
    }, 5);
    const ids: string[] = [];
    try {
      for (let round = 0; round < 25; round++) {
        ids.push(...(await h.add(round % 3 === 0 ? b : a, 1 + (round % 2))));
        await sleep(40 + ((round * 37) % 90)); // 40–130 ms: before, at and after the 60 ms idle time
      }
      await until(async () => (await h.completed(a)) + (await h.completed(b)) === ids.length, 20_000, 'every job sent');
    } finally {
      clearInterval(watch);
    }
    expect(closes.n).toBeGreaterThan(0); // workers really were closed (and reopened) in between
    const sent = h.session.sends.map((s) => s.id);
    expect(sent.sort()).toEqual([...ids].sort());
    expect(new Set(sent).size).toBe(sent.length);
    const failed = (await h.queues.queue(a).getJobCounts('failed')).failed + (await h.queues.queue(b).getJobCounts('failed')).failed;
    expect(failed).toBe(0);
  });

  it('with idle time 0, workers are never closed', async () => {
    const [a] = h.phones;
    await h.add(a, 1);
    const workers = await startWorkers(0);
    await until(async () => (await h.completed(a)) === 1, 10_000, 'sent');
    await sleep(400);
    expect(workers.phones).toEqual([a]);
  });
});
