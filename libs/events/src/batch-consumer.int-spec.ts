import { randomSuffix, testEnv } from '@mapi/testing';
import { JSONCodec, RetentionPolicy, StorageType, connect, type JetStreamManager, type NatsConnection } from 'nats';
import { BatchConsumer } from './consumer/batch-consumer';

const codec = JSONCodec();
let nc: NatsConnection;
let jsm: JetStreamManager;
let stream: string;
let subject: string;

beforeAll(async () => {
  nc = await connect({ servers: testEnv.natsUrl() });
  jsm = await nc.jetstreamManager();
});
beforeEach(async () => {
  const suffix = randomSuffix();
  stream = `BATCH_${suffix.toUpperCase()}`;
  subject = `batch-${suffix}.items`;
  await jsm.streams.add({ name: stream, subjects: [subject], storage: StorageType.Memory, retention: RetentionPolicy.Limits });
});
afterEach(() => jsm.streams.delete(stream).catch(() => undefined));
afterAll(() => nc.close());

async function publish(items: unknown[]) {
  const js = nc.jetstream();
  await Promise.all(items.map((item) => js.publish(subject, codec.encode(item))));
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(check: () => boolean | Promise<boolean>, timeoutMs = 15_000) {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await sleep(20);
  }
}

describe('BatchConsumer', () => {
  it('gathers what arrives during a slow batch into one batch, not a sliver per linger', async () => {
    const batches: number[][] = [];
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let first = true;
    const consumer = new BatchConsumer<{ n: number }>(
      nc,
      { stream, durable: 'slow', batchSize: 100, lingerMs: 5 },
      async (items) => {
        batches.push(items.map((i) => i.data.n));
        if (first) {
          first = false;
          await released; // the first batch is slow: the rest arrives meanwhile, a few at a time
        }
      },
      (e) => {
        throw e;
      },
    );
    await consumer.start();
    await publish([{ n: 0 }]);
    await until(() => batches.length === 1);
    for (let n = 1; n <= 20; n++) {
      await publish([{ n }]);
      await sleep(20); // several lingers apart
    }
    // Every message has reached the consumer (delivered, not acked) before the slow batch ends.
    await until(async () => (await jsm.consumers.info(stream, 'slow')).num_ack_pending === 21);
    await sleep(100);
    release();
    await until(() => batches.flat().length >= 21);
    await consumer.stop();
    expect(batches.flat()).toEqual(Array.from({ length: 21 }, (_, n) => n));
    expect(batches.length).toBe(2); // [0], then 1..20 together once the slow one ended
  });

  it('hands every message on once, in order, in batches bounded by count and by weight, and acks them', async () => {
    const batches: number[][] = [];
    const consumer = new BatchConsumer<{ n: number; w: number }>(
      nc,
      { stream, durable: 'c1', batchSize: 8, maxWeight: 10, weigh: (d) => (d as { w: number }).w, lingerMs: 20 },
      async (items) => void batches.push(items.map((i) => i.data.n)),
      (e) => {
        throw e;
      },
    );
    const items = Array.from({ length: 60 }, (_, n) => ({ n, w: n % 10 === 0 ? 25 : 1 })); // every 10th outweighs a batch alone
    await publish(items);
    await consumer.start();
    await until(() => batches.flat().length >= 60);
    await consumer.stop();
    expect(batches.flat()).toEqual(items.map((i) => i.n));
    for (const b of batches) {
      expect(b.length).toBeLessThanOrEqual(8);
      const weight = b.reduce((sum, n) => sum + items[n].w, 0);
      expect(b.length === 1 || weight <= 10).toBe(true);
    }
    expect(batches.some((b) => b.length === 1 && items[b[0]].w === 25)).toBe(true);
    const info = await jsm.consumers.info(stream, 'c1');
    expect(info.num_ack_pending).toBe(0);
    expect(info.num_pending).toBe(0);
  });

  it('takes no more while a batch waits, so a slow handler causes no redelivery', async () => {
    let handled = 0;
    let maxHeld = 0;
    const consumer = new BatchConsumer<{ n: number }>(
      nc,
      { stream, durable: 'slow', batchSize: 10, ackWaitMs: 1_500, lingerMs: 1 },
      async (items) => {
        await sleep(60);
        handled += items.length;
      },
      () => undefined,
    );
    await publish(Array.from({ length: 500 }, (_, n) => ({ n }))); // 50 batches × 60 ms = 3 s, twice the ack wait
    await consumer.start();
    const watch = setInterval(() => {
      void jsm.consumers.info(stream, 'slow').then(
        (i) => (maxHeld = Math.max(maxHeld, i.num_ack_pending)),
        () => undefined,
      );
    }, 50);
    await until(() => handled >= 500);
    clearInterval(watch);
    await consumer.stop();
    const info = await jsm.consumers.info(stream, 'slow');
    expect(info.num_redelivered).toBe(0);
    expect(handled).toBe(500);
    // one batch applied + one waiting + one gathering + the client's read-ahead (2 batches)
    expect(maxHeld).toBeLessThanOrEqual(50);
  });

  it('retries a batch that fails, and ends a message that is not JSON instead of redelivering it', async () => {
    const errors: unknown[] = [];
    const seen: number[] = [];
    let failures = 1;
    const consumer = new BatchConsumer<{ n: number }>(
      nc,
      { stream, durable: 'retry', batchSize: 5, lingerMs: 5 },
      async (items) => {
        if (failures-- > 0) throw new Error('database unavailable');
        seen.push(...items.map((i) => i.data.n));
      },
      (e) => errors.push(e),
    );
    await nc.jetstream().publish(subject, new TextEncoder().encode('{not json'));
    await publish([{ n: 1 }, { n: 2 }]);
    await consumer.start();
    await until(() => seen.length >= 2);
    await sleep(300);
    await consumer.stop();
    expect(seen).toEqual([1, 2]);
    expect(errors.map((e) => (e as Error).message)).toContain('database unavailable');
    expect(errors.length).toBe(2); // the bad message once, the failed batch once
    const info = await jsm.consumers.info(stream, 'retry');
    expect(info.num_ack_pending).toBe(0);
    expect(info.num_pending).toBe(0);
  });
});
