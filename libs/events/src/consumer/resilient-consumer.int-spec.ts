import { randomSuffix, testEnv } from '@mapi/testing';
import { JSONCodec, RetentionPolicy, StorageType, connect, type JetStreamManager, type NatsConnection } from 'nats';
import { BatchConsumer } from './batch-consumer';
import { consumerStatuses, consumersIndicator } from './consumer-states';

const codec = JSONCodec();
let nc: NatsConnection;
let jsm: JetStreamManager;
let stream: string;
let subject: string;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(check: () => boolean | Promise<boolean>, timeoutMs = 15_000) {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await sleep(20);
  }
}
const ensureStream = async () => {
  const config = { name: stream, subjects: [subject], storage: StorageType.Memory, retention: RetentionPolicy.Limits };
  await jsm.streams.info(stream).then(
    () => jsm.streams.update(stream, config),
    () => jsm.streams.add(config),
  );
};
const publish = async (from: number, to: number) => {
  for (let n = from; n < to; n++) await nc.jetstream().publish(subject, codec.encode({ n }));
};
const readiness = () =>
  consumersIndicator()
    .check()
    .then(
      () => 'up',
      (e: Error) => e.message,
    );

beforeAll(async () => {
  nc = await connect({ servers: testEnv.natsUrl() });
  jsm = await nc.jetstreamManager();
});
beforeEach(async () => {
  const suffix = randomSuffix();
  stream = `RESILIENT_${suffix.toUpperCase()}`;
  subject = `resilient-${suffix}.items`;
  await ensureStream();
});
afterEach(() => jsm.streams.delete(stream).catch(() => undefined));
afterAll(() => nc.close());

/**
 * The subscription is broken for real on the NATS server (the durable deleted, the stream deleted
 * as a nats-server restarted on an empty store would), and the consumer must come back by itself
 * and deliver what is published after the break, nothing lost.
 */
describe('a stream consumer restarts itself when its subscription breaks', () => {
  const logs: string[] = [];
  const log = { info: (_: object, msg: string) => void logs.push(msg), warn: (_: object, msg: string) => void logs.push(msg) };
  const start = async (durable: string) => {
    const seen = new Set<number>();
    const consumer = new BatchConsumer<{ n: number }>(
      nc,
      { stream, durable, batchSize: 10, lingerMs: 5, ensureStream, log, backoffMs: { first: 50, max: 400 } },
      async (items) => items.forEach((i) => seen.add(i.data.n)),
      (e) => {
        throw e;
      },
    );
    await consumer.start();
    return { consumer, seen };
  };

  beforeEach(() => (logs.length = 0));

  it('re-creates a deleted durable and delivers what comes after, the state going down and back up', async () => {
    const { consumer, seen } = await start('gone');
    expect(consumer.status().state).toBe('up');
    await publish(0, 20);
    await until(() => seen.size === 20);
    await jsm.consumers.delete(stream, 'gone');
    await until(() => logs.includes('stream consumer resumed'));
    expect(logs.filter((l) => l === 'stream consumer down; restarting it')).toHaveLength(1);
    await publish(20, 40);
    await until(() => seen.size === 40);
    expect([...seen].sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, n) => n));
    await until(async () => (await jsm.consumers.info(stream, 'gone')).num_ack_pending === 0);
    expect(consumer.status().state).toBe('up');
    await consumer.stop();
  });

  it('re-creates its stream (NATS lost its store) and reads on; unready while it cannot, ready again by itself', async () => {
    const { consumer, seen } = await start('lost');
    await publish(0, 5);
    await until(() => seen.size === 5);
    // The stream goes, and another takes its subjects: re-creating it fails until that one is gone.
    await jsm.streams.delete(stream);
    const blocker = `${stream}_BLOCKER`;
    await jsm.streams.add({ name: blocker, subjects: [subject], storage: StorageType.Memory });
    await until(() => consumer.status().state === 'down');
    expect(await readiness()).toMatch(/^lost down: /);
    expect(consumerStatuses().find((s) => s.name === 'lost')).toMatchObject({ state: 'down' });
    await sleep(1_000); // several attempts: still down, logged once
    expect(consumer.status().state).toBe('down');
    expect(logs.filter((l) => l === 'stream consumer down; restarting it')).toHaveLength(1);
    await jsm.streams.delete(blocker);
    await until(() => consumer.status().state === 'up');
    expect(await readiness()).toBe('up');
    await publish(5, 30);
    await until(() => seen.size === 30);
    expect([...seen].sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, n) => n));
    await consumer.stop();
    expect(consumerStatuses().find((s) => s.name === 'lost')).toBeUndefined();
  });
});
