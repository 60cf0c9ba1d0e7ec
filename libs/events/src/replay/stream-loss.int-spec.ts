import { randomUUID } from 'node:crypto';
import { PrivateNats, randomSuffix, stubEvents, useTestDatabase, sleep, waitUntil as until } from '@mapi/testing';
import { AckPolicy, JSONCodec, connect, type NatsConnection } from 'nats';
import pino from 'pino';
import { BatchConsumer } from '../consumer/batch-consumer';
import { ensureStreams, eventSubject, streamNames } from '../jetstream';
import { OutboxRelay, unpublishedEvents, writeEvents } from '../outbox';
import { consumedFloor } from './consumed-floor';

jest.setTimeout(90_000);

const t = useTestDatabase('stream_loss', { poolSize: 4 });
const codec = JSONCodec<{ event_id: string }>();

/**
 * The fault the stream cannot survive alone (docs/decisions/0079): nats-server restarted on an empty store.
 * The relay's watch sees the stream created anew and publishes again what the consumers had not
 * acknowledged, and only that; a kill on the same store loses nothing and publishes nothing again.
 */
describe('the events stream lost with nats-server’s store', () => {
  let nats: PrivateNats;
  let nc: NatsConnection;
  let relay: OutboxRelay;
  const namespace = `loss-${randomSuffix(4)}`;
  const stream = streamNames(namespace).events;
  const org = randomUUID();

  beforeAll(async () => {
    nats = await PrivateNats.start();
    nc = await connect({ servers: nats.url, maxReconnectAttempts: -1, reconnectTimeWait: 100 });
    await ensureStreams(nc, namespace);
    relay = new OutboxRelay(t.prisma, nc, namespace, pino({ level: 'silent' }), { intervalMs: 20, watchMs: 200 });
    await relay.start();
  });
  afterAll(async () => {
    await relay?.stop();
    await nc?.close();
    await nats?.destroy();
  });

  const write = async (from: number, to: number) => {
    const events = Array.from({ length: to - from }, (_, i) => ({
      type: 'chat.created' as const,
      org_id: org,
      data: { chat_id: `${from + i}@c.us` },
    }));
    await t.prisma.$transaction((tx) => writeEvents(tx, stubEvents(events)));
    await until(async () => (await unpublishedEvents(t.prisma)) === 0, 'the relay to publish');
  };
  const consumer = (seen: string[]) =>
    new BatchConsumer<{ event_id: string; data: { chat_id: string } }>(
      nc,
      { stream, durable: 'probe', batchSize: 10, ensureStream: () => ensureStreams(nc, namespace), backoffMs: { first: 100, max: 300 } },
      async (items) => void seen.push(...items.map((i) => i.data.data.chat_id)),
      () => undefined,
    );

  it('publishes again what no consumer had taken, and nothing taken before', async () => {
    const before: string[] = [];
    const first = consumer(before);
    await first.start();
    await write(0, 40);
    await until(() => before.length === 40, 'the first events consumed');
    await first.stop(); // the durable stays, 40 acknowledged; what follows waits for it
    await write(40, 65);
    await sleep(600); // the watch reads the floor (40) at least twice

    await nats.kill(); // same store: nothing lost, nothing published again
    await nats.start();
    await sleep(800);
    const info = await (await nc.jetstreamManager()).streams.info(stream);
    expect(info.state.messages).toBe(65);

    await nats.restart({ empty: true });
    const after: string[] = [];
    const second = consumer(after);
    await second.start(); // re-creates the stream and the durable
    await until(() => after.length >= 25, 'the unconsumed events published again');
    await sleep(800);
    await second.stop();
    expect([...after].sort()).toEqual(Array.from({ length: 25 }, (_, i) => `${40 + i}@c.us`).sort());
  });

  it('takes the lowest acknowledgement of the durable consumers, and a caught-up one as the whole stream', async () => {
    const jsm = await nc.jetstreamManager();
    const ns = `floor-${randomSuffix(4)}`;
    await ensureStreams(nc, ns);
    const s = streamNames(ns).events;
    try {
      for (let i = 0; i < 10; i++)
        await nc.jetstream().publish(eventSubject(ns, 'chat.created'), codec.encode({ event_id: `e${i}` }), { msgID: `e${i}` });
      await jsm.consumers.add(s, { durable_name: 'ahead', ack_policy: AckPolicy.Explicit });
      await jsm.consumers.add(s, { durable_name: 'behind', ack_policy: AckPolicy.Explicit });
      const take = async (durable: string, n: number) => {
        const c = await nc.jetstream().consumers.get(s, durable);
        const batch = await c.fetch({ max_messages: n, expires: 2_000 });
        for await (const m of batch) await m.ackAck();
      };
      await take('ahead', 10);
      await take('behind', 4);
      expect(await consumedFloor(jsm, s, await jsm.streams.info(s))).toBe(4);
      await take('behind', 6);
      expect(await consumedFloor(jsm, s, await jsm.streams.info(s))).toBe(10);
    } finally {
      await jsm.streams.delete(s).catch(() => undefined);
    }
  });
});
