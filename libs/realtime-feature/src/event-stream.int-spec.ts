import { randomUUID } from 'node:crypto';
import { consumerStatuses, ensureStreams, eventSubject, publishDurable, streamNames, type DomainEvent } from '@mapi/events';
import { connectNats, createLogger } from '@mapi/platform';
import { PrivateNats, randomSuffix, testEnv } from '@mapi/testing';
import type { NatsConnection } from 'nats';
import { EventStream } from './event-stream';

let nc: NatsConnection;
let namespace: string;
let received: number[];
let stream: EventStream;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(check: () => boolean, what: string, timeoutMs = 15_000) {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}
const publish = async (from: number, to: number) => {
  for (let n = from; n < to; n++) {
    const event = {
      event_id: randomUUID(),
      org_id: 'org-a',
      event_type: 'message.created',
      created_at: new Date().toISOString(),
      data: { n },
    } as unknown as DomainEvent;
    await publishDurable(nc.jetstream(), eventSubject(namespace, 'message.created'), event, event.event_id);
  }
};
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

beforeAll(async () => {
  nc = await connectNats(testEnv.natsUrl(), 'event-stream-spec');
});
beforeEach(async () => {
  namespace = `${testEnv.namespace()}-es-${randomSuffix(3)}`;
  received = [];
  stream = new EventStream(
    nc,
    namespace,
    (e) => received.push((e.data as unknown as { n: number }).n),
    createLogger('event-stream-spec', 'silent'),
  );
  await stream.start();
});
afterEach(async () => {
  await stream.stop();
  await (await nc.jetstreamManager()).streams.delete(streamNames(namespace).events).catch(() => undefined);
});
afterAll(() => nc.drain());

/** A gateway replica's reading of the events, when NATS loses the stream (a restart on an empty store). */
describe('realtime event stream across a lost stream', () => {
  it('re-creates the stream it lost and delivers every event published after, in order', async () => {
    await publish(0, 10);
    await until(() => received.length === 10, 'the first events');
    await (await nc.jetstreamManager()).streams.delete(streamNames(namespace).events);
    await until(() => consumerStatuses().some((s) => s.name === 'realtime' && s.state === 'down'), 'the reader down');
    await until(() => consumerStatuses().every((s) => s.name !== 'realtime' || s.state === 'up'), 'the reader back');
    await publish(10, 25);
    await until(() => received.length === 25, 'the events after the loss');
    expect(received).toEqual(range(0, 25));
  });

  it('reads a stream another app re-created first from its start, though its sequence numbers restart below those seen', async () => {
    await publish(0, 30);
    await until(() => received.length === 30, 'the first events');
    const jsm = await nc.jetstreamManager();
    await jsm.streams.delete(streamNames(namespace).events);
    await ensureStreams(nc, namespace); // the chats service got there first
    await publish(30, 40); // stream sequences 1..10, below the 30 the reader has seen
    await until(() => received.length === 40, 'the events of the new stream');
    expect(received).toEqual(range(0, 40));
  });
});

/** The fault itself, on a nats-server of the test's own: restarted on an empty store under a running reader. */
describe('realtime event stream across a nats-server restart on an empty store', () => {
  it('delivers every event published after the restart', async () => {
    const nats = await PrivateNats.start();
    const own = await connectNats(nats.url, 'event-stream-restart-spec');
    const ns = `${testEnv.namespace()}-esr-${randomSuffix(3)}`;
    const got: number[] = [];
    const reader = new EventStream(
      own,
      ns,
      (e) => got.push((e.data as unknown as { n: number }).n),
      createLogger('event-stream-spec', 'silent'),
    );
    const send = async (from: number, to: number) => {
      for (let n = from; n < to; n++) {
        const event = {
          event_id: randomUUID(),
          org_id: 'org-a',
          event_type: 'message.created',
          created_at: new Date().toISOString(),
          data: { n },
        } as unknown as DomainEvent;
        await publishDurable(own.jetstream(), eventSubject(ns, 'message.created'), event, event.event_id);
      }
    };
    try {
      await reader.start();
      await send(0, 20);
      await until(() => got.length === 20, 'the events before');
      await nats.restart({ empty: true });
      // another app (chats) re-creates the stream at once and publishes: the reader's cursor (20) is past its sequences
      await ensureStreamsWhenConnected(own, ns);
      await send(20, 30);
      await until(() => got.length === 30, 'the events after the restart');
      expect(got).toEqual(range(0, 30));
    } finally {
      await reader.stop();
      await own.close();
      await nats.destroy();
    }
  });
});

async function ensureStreamsWhenConnected(conn: NatsConnection, ns: string): Promise<void> {
  const end = Date.now() + 10_000;
  for (;;) {
    try {
      return await ensureStreams(conn, ns);
    } catch (error) {
      if (Date.now() > end) throw error;
      await sleep(100);
    }
  }
}
