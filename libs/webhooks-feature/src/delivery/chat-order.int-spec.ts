import { randomUUID } from 'node:crypto';
import { OUTBOX_SEQ_HEADER, ensureStreams, eventSubject, streamNames } from '@mapi/events';
import { createOrg, randomSuffix, testEnv, useTestDatabase } from '@mapi/testing';
import { AckPolicy, DeliverPolicy, connect, headers, nanos, type NatsConnection } from 'nats';
import { Pool } from 'pg';
import pino from 'pino';
import { DeliveryStore, type StoredEvent } from './delivery-store';
import { DISPATCHER_DURABLE, EventIntake } from './event-intake';

/**
 * A chat's order (orderByChat, decision 0087) against real Postgres and JetStream. The cause of the
 * CI failure (100 of 400 out of order across a dispatcher SIGKILL): the killed dispatcher had taken
 * a batch from JetStream and not acked it; JetStream redelivers it only after the ack wait, while the
 * new dispatcher goes on with the later events. The claim ordered a chat by delivery id, the order of
 * scheduling, so the later events went first. Now the order is the events' outbox seq, and the claim
 * waits for the order floor (every earlier event scheduled).
 */
jest.setTimeout(60_000);

const logger = pino({ level: 'silent' });
const LEASE = 60_000;
const limits = { maxInFlight: 100, ratePerSecond: 10_000 };

describe('per-chat order of event sinks (real Postgres and JetStream)', () => {
  let pool: Pool;
  let nc: NatsConnection;
  let intake: EventIntake | undefined;
  const namespace = `wco${randomSuffix(3)}`;
  afterAll(async () => {
    await intake?.stop();
    await pool?.end();
    if (nc) {
      await (await nc.jetstreamManager()).streams.delete(streamNames(namespace).events).catch(() => undefined);
      await (await nc.jetstreamManager()).streams.delete(streamNames(namespace).ingest).catch(() => undefined);
      await nc.drain();
    }
  });
  const t = useTestDatabase('mapi_webhooks_chat_order');
  let store: DeliveryStore;
  let orgId: string;

  beforeAll(async () => {
    pool = new Pool({ connectionString: t.db.url, max: 4 });
    pool.on('error', () => undefined);
    store = new DeliveryStore(pool);
    orgId = (await createOrg(t.prisma)).id;
    nc = await connect({ servers: testEnv.natsUrl() });
    await ensureStreams(nc, namespace);
  });

  /** A sink to `type` (unordered unless `orderByChat`). */
  const sink = (type: string, orderByChat: boolean) =>
    t.prisma.webhookSubscription.create({
      data: {
        org_id: orgId,
        integration_name: type,
        integration_id: randomUUID(),
        integration_metadata: {},
        hook_url: `amqp://127.0.0.1:5672/${orderByChat ? 'ordered' : 'unordered'}`,
        secret: 'whsec_' + Buffer.alloc(32, 3).toString('base64'),
        transport: 'amqp',
        transport_config: { orderByChat },
      },
    });

  const event = (type: string, n: number, seq: number): StoredEvent => {
    const id = randomUUID();
    return {
      id,
      org_id: orgId,
      type,
      phone_id: null,
      created_at: new Date().toISOString(),
      body: JSON.stringify({ event_id: id, n }),
      chat_id: 'chat-a',
      seq: String(seq),
    };
  };

  /** What was claimed, per subscription, in claim order (each claim recorded as a success at once). */
  const sent = new Map<string, number[]>();
  const sentTo = (id: string) => sent.get(id) ?? [];
  /** `n` of a stored body (this file's events) or of a delivered one (the webhook envelope's data). */
  const nOf = (body: string): number => {
    const b = JSON.parse(body);
    return b.data?.n ?? b.n;
  };

  /** Claims and records as a worker does until `done` holds (or `timeoutMs` passes). */
  async function pump(done: () => boolean, timeoutMs = 20_000): Promise<void> {
    const end = Date.now() + timeoutMs;
    while (!done() && Date.now() < end) {
      const now = new Date();
      const rows = await store.claim(now, new Date(now.getTime() + LEASE), 100, limits);
      for (const r of rows) sent.set(r.subscription_id, [...sentTo(r.subscription_id), nOf(r.body)]);
      await store.record(
        rows.map((r) => ({ ...r, status: 'succeeded' as const, next_attempt_at: null, log: null })),
        { succeeded: [], failed: [], disable: [] },
        new Date(),
      );
      if (!rows.length) await new Promise((r) => setTimeout(r, 20));
    }
  }

  it('claims by outbox seq, not by the order of scheduling, and nothing above the floor', async () => {
    const type = `test.${randomUUID()}`;
    const ordered = await sink(type, true);
    const [e1, e2, e3, e4] = [1, 2, 3, 4].map((n) => event(type, n, 1_000 + n));
    // the later events scheduled first (a redelivered batch), as the intake does it
    expect(await store.schedule([e3, e4], new Date())).toEqual({ scheduled: 2, ordered: true });
    expect(await store.raiseOrderFloor(1_004n)).toBe(true); // (once e1, e2 are scheduled too, in truth)
    await store.schedule([e1, e2], new Date());
    await pump(() => sentTo(ordered.id).length >= 4);
    expect(sentTo(ordered.id)).toEqual([1, 2, 3, 4]);
    // above the floor: held, however long it is due
    await store.schedule([event(type, 5, 2_000)], new Date());
    await pump(() => false, 300);
    expect(sentTo(ordered.id)).toHaveLength(4);
    expect(await store.raiseOrderFloor(2_000n)).toBe(true);
    expect(await store.raiseOrderFloor(1_500n)).toBe(false); // never lowered
    await pump(() => sentTo(ordered.id).length >= 5);
    expect(sentTo(ordered.id)).toEqual([1, 2, 3, 4, 5]);
  });

  it('keeps the order when JetStream redelivers a batch a killed dispatcher took, after later ones', async () => {
    const type = `test.${randomUUID()}`;
    const ordered = await sink(type, true);
    const unordered = await sink(type, false);
    const stream = streamNames(namespace).events;
    const jsm = await nc.jetstreamManager();
    const ackWaitMs = 1_500;
    await jsm.consumers.add(stream, {
      durable_name: DISPATCHER_DURABLE,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      ack_wait: nanos(ackWaitMs),
    });
    // published as the relay does: Nats-Msg-Id = event id, the outbox seq in a header
    const js = nc.jetstream();
    for (let n = 1; n <= 6; n++) {
      const e = { event_id: randomUUID(), event_type: type, org_id: orgId, phone_id: null, created_at: new Date().toISOString() };
      const h = headers();
      h.set(OUTBOX_SEQ_HEADER, String(3_000 + n));
      await js.publish(eventSubject(namespace, type), JSON.stringify({ ...e, data: { chat_id: 'chat-a', n } }), {
        msgID: e.event_id,
        headers: h,
      });
    }
    // the dispatcher that is killed: takes the first three and never acks them
    const dead = await (await js.consumers.get(stream, DISPATCHER_DURABLE)).fetch({ max_messages: 3, expires: 2_000 });
    for await (const m of dead) if (m.seq === 3) break;
    intake = new EventIntake(nc, namespace, store, { now: () => new Date() }, () => undefined, logger, {
      batchSize: 10,
      lingerMs: 5,
      ackWaitMs,
      floor: { idleMs: 200 },
    });
    await intake.start();
    // unordered, 4..6 go at once, before 1..3 are even redelivered (after the ack wait)
    await pump(() => sentTo(unordered.id).length >= 3, ackWaitMs - 300);
    expect(new Set(sentTo(unordered.id))).toEqual(new Set([4, 5, 6]));
    await pump(() => sentTo(unordered.id).length >= 6 && sentTo(ordered.id).length >= 6);
    expect(new Set(sentTo(unordered.id))).toEqual(new Set([1, 2, 3, 4, 5, 6]));
    // ordered, they waited for 1..3: by delivery id (the order of scheduling) it was 4, 5, 6, 1, 2, 3
    expect(sentTo(ordered.id)).toEqual([1, 2, 3, 4, 5, 6]);
  });
});
