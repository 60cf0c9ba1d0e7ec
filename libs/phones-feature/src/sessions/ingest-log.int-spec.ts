import { StreamWatch, BatchConsumer, ensureStreams, streamNames } from '@mapi/events';
import type { IngestEvent } from '@mapi/contracts';
import { PrivateNats, randomSuffix, useTestDatabase, sleep, waitUntil as until } from '@mapi/testing';
import { connect, type NatsConnection } from 'nats';
import pino from 'pino';
import { IngestLog } from './ingest-log';
import { IngestPublisher } from './ingest-publisher';

jest.setTimeout(90_000);

const t = useTestDatabase('ingest_log', { poolSize: 3 });
const silent = pino({ level: 'silent' });
const rows = async () => (await t.prisma.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM ingest_log`)[0].n;

/**
 * Inbound messages handed to a stream that nats-server then loses with its store: the phones
 * service keeps what chats has not acknowledged and publishes it again, and keeps nothing it took.
 */
describe('the ingest log across a lost stream', () => {
  let nats: PrivateNats;
  let nc: NatsConnection;
  let watch: StreamWatch;
  let log: IngestLog;
  let publisher: IngestPublisher;
  const ns = `ingest-loss-${randomSuffix(4)}`;
  const stream = streamNames(ns).ingest;

  beforeAll(async () => {
    nats = await PrivateNats.start();
    nc = await connect({ servers: nats.url, maxReconnectAttempts: -1, reconnectTimeWait: 100 });
    await ensureStreams(nc, ns);
    log = new IngestLog(t.prisma, nc, silent, { flushMs: 10 });
    watch = new StreamWatch(nc, stream, log, silent, { intervalMs: 200 });
    await watch.start();
    publisher = new IngestPublisher(nc, ns, log);
  });
  afterAll(async () => {
    await watch?.stop();
    await log?.stop();
    await nc?.close();
    await nats?.destroy();
  });

  // Stand-in events: the log and the publisher carry any event of the ingest schema's shape unread.
  const event = (n: number) =>
    ({ kind: 'message', org_id: 'org', phone_id: 'phone', message: { body: `m${n}` } }) as unknown as IngestEvent;
  const publish = async (from: number, to: number) => {
    for (let n = from; n < to; n++) await publisher.publish(event(n));
  };
  const consumer = (seen: string[]) =>
    new BatchConsumer<{ message: { body: string } }>(
      nc,
      { stream, durable: 'chats-ingest', batchSize: 10, ensureStream: () => ensureStreams(nc, ns), backoffMs: { first: 100, max: 300 } },
      async (items) => void seen.push(...items.map((i) => i.data.message.body)),
      () => undefined,
    );

  it('keeps only what the consumer has not taken, and publishes it again after an empty restart', async () => {
    const before: string[] = [];
    const first = consumer(before);
    await first.start();
    await publish(0, 30);
    await until(() => before.length === 30, 'the first events consumed');
    await until(async () => (await rows()) === 0, 'the consumed events dropped from the log');
    await first.stop();

    await publish(30, 50);
    await until(async () => (await rows()) === 20, 'the unconsumed events kept');
    await sleep(500);
    expect(await rows()).toBe(20);

    await nats.restart({ empty: true });
    const after: string[] = [];
    const second = consumer(after);
    await second.start();
    await until(() => after.length >= 20, 'the kept events published again');
    await until(async () => (await rows()) === 0, 'the log emptied once they are consumed');
    await sleep(500);
    await second.stop();
    expect([...after].sort()).toEqual(Array.from({ length: 20 }, (_, i) => `m${30 + i}`).sort());
  });
});
