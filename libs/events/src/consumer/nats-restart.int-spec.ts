import { PrivateNats, randomSuffix, waitUntil as until } from '@mapi/testing';
import { JSONCodec, connect, type NatsConnection } from 'nats';
import { ensureStreams, ingestSubject, streamNames } from '../jetstream';
import { BatchConsumer } from './batch-consumer';
import { consumersIndicator } from './consumer-states';

jest.setTimeout(60_000);

const codec = JSONCodec();

/**
 * The fault itself, on a nats-server of the test's own: killed and started on its store, then
 * restarted on an empty one (streams and durables gone). The consumer is down while NATS is, comes
 * back by itself, re-creates the stream and its durable, and delivers everything published after.
 */
describe('a stream consumer across nats-server restarts', () => {
  let nats: PrivateNats;
  let nc: NatsConnection;
  const namespace = `restart-${randomSuffix(4)}`;

  beforeAll(async () => {
    nats = await PrivateNats.start();
    nc = await connect({ servers: nats.url, maxReconnectAttempts: -1, reconnectTimeWait: 100 });
  });
  afterAll(async () => {
    await nc?.close();
    await nats?.destroy();
  });

  it('comes back after a kill on the same store and after a restart on an empty store, nothing published after lost', async () => {
    await ensureStreams(nc, namespace);
    const seen = new Set<number>();
    const consumer = new BatchConsumer<{ n: number }>(
      nc,
      {
        stream: streamNames(namespace).ingest,
        durable: 'probe',
        batchSize: 20,
        ensureStream: () => ensureStreams(nc, namespace),
        backoffMs: { first: 100, max: 500 },
      },
      async (items) => items.forEach((i) => seen.add(i.data.n)),
      () => undefined,
    );
    await consumer.start();
    const publish = async (from: number, to: number) => {
      for (let n = from; n < to; n++)
        await nc.jetstream().publish(ingestSubject(namespace, 'probe'), codec.encode({ n }), { msgID: `m-${n}` });
    };
    const ready = () =>
      consumersIndicator()
        .check()
        .then(
          () => true,
          () => false,
        );

    await publish(0, 10);
    await until(() => seen.size === 10, 'the first messages');

    await nats.kill();
    await until(() => consumer.status().state === 'down', 'the consumer down while NATS is');
    expect(await ready()).toBe(false);
    await nats.start();
    await until(ready, 'ready again after the kill');
    await publish(10, 20);
    await until(() => seen.size === 20, 'the messages after the kill');

    await nats.restart({ empty: true });
    await until(
      async () =>
        consumer.status().state === 'up' &&
        (await nc
          .jetstreamManager()
          .then((m) => m.streams.info(streamNames(namespace).ingest))
          .then(
            () => true,
            () => false,
          )),
      'the stream re-created and consumed',
    );
    await publish(20, 40);
    await until(() => seen.size === 40, 'the messages after the empty restart');
    expect([...seen].sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, n) => n));
    await consumer.stop();
  });
});
