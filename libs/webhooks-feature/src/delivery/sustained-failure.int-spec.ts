import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OutboxRelay, ensureStreams, eventSubject, streamNames } from '@mapi/events';
import { createOrg, randomSuffix, registryPayload, testEnv, useTestDatabase } from '@mapi/testing';
import { connect, type NatsConnection } from 'nats';
import { Pool } from 'pg';
import pino from 'pino';
import { AddressPolicy, HttpSender } from '@mapi/platform';
import type { Clock } from './clock';
import { DeliveryStore, SUBSCRIPTION_DISABLED_EVENT, type StoredEvent } from './delivery-store';
import { DeliveryWorker } from './delivery-worker';
import { DEFAULT_RETRY_SCHEDULE_MS } from './retry-policy';

/**
 * Sustained failure over six days of fake time, against real Postgres, a real HTTP receiver and the
 * real outbox relay → JetStream: a subscription failing continuously is disabled once its streak
 * reaches 5 days, and the disabling event is written and published exactly once; a subscription that
 * had one success inside the window is not disabled.
 */
jest.setTimeout(120_000);

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const STEP = 6 * HOUR;

class FakeClock implements Clock {
  constructor(public t: number) {}
  now(): Date {
    return new Date(this.t);
  }
}

describe('sustained failure disables a subscription (fake clock, real Postgres/HTTP/NATS)', () => {
  // Declared before useTestDatabase: afterAll hooks run in declaration order, and the worker must stop
  // (and its pool close) before the test database is dropped under it.
  afterAll(async () => {
    await worker?.stop();
    sender?.close();
    await pool?.end();
    if (nc) {
      await (await nc.jetstreamManager()).streams.delete(streamNames(namespace).events).catch(() => undefined);
      await (await nc.jetstreamManager()).streams.delete(streamNames(namespace).ingest).catch(() => undefined);
      await nc.drain();
    }
    server?.closeAllConnections();
    await new Promise((r) => server?.close(r));
  });
  const t = useTestDatabase('mapi_webhooks_sustained');
  const namespace = `wsf${randomSuffix(3)}`;
  const T0 = Date.UTC(2030, 0, 1);
  const clock = new FakeClock(T0);
  let pool: Pool;
  let store: DeliveryStore;
  let sender: HttpSender;
  let worker: DeliveryWorker;
  let server: Server;
  let nc: NatsConnection;
  let recoversHealthy = false;
  const hits = { always: 0, recovers: 0 };
  let orgId: string;
  const subs: Record<'always' | 'recovers', string> = { always: '', recovers: '' };

  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        if (req.url === '/always') hits.always++;
        if (req.url === '/recovers') hits.recovers++;
        const ok = req.url === '/recovers' && recoversHealthy;
        res.writeHead(ok ? 200 : 500).end(ok ? 'ok' : 'down');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    pool = new Pool({ connectionString: t.db.url, max: 4 });
    pool.on('error', () => undefined);
    store = new DeliveryStore(pool);
    sender = new HttpSender(new AddressPolicy(['127.0.0.1/32']), 2_000);
    worker = new DeliveryWorker(
      store,
      sender,
      clock,
      {
        concurrency: 16,
        endpointLimits: { maxInFlight: 32, ratePerSecond: 10_000 },
        leaseMs: 60_000,
        pollMs: 20,
        claimBatch: 100,
        flushMs: 5,
        schedule: DEFAULT_RETRY_SCHEDULE_MS,
        disableAfterMs: 5 * DAY,
      },
      pino({ level: 'silent' }),
    );
    orgId = (await createOrg(t.prisma)).id;
    for (const name of ['always', 'recovers'] as const) {
      const row = await t.prisma.webhookSubscription.create({
        data: {
          org_id: orgId,
          integration_name: 'message.created',
          integration_id: randomUUID(),
          integration_metadata: {},
          hook_url: `${base}/${name}`,
          secret: 'whsec_' + Buffer.alloc(32, 9).toString('base64'),
        },
      });
      subs[name] = row.id;
    }
    nc = await connect({ servers: testEnv.natsUrl() });
    await ensureStreams(nc, namespace);
    worker.start();
  });

  /** Until nothing is due at the fake now and nothing is held by the worker. */
  async function settle(): Promise<void> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const { rows } = await pool.query(
        `SELECT count(*)::int AS n FROM webhook_deliveries WHERE next_attempt_at <= $1 OR leased_until IS NOT NULL`,
        [clock.now()],
      );
      if (rows[0].n === 0) return;
      if (Date.now() > deadline) throw new Error(`deliveries still due at ${clock.now().toISOString()}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  /** One step of fake time: a new event for both subscriptions, then every due attempt made. */
  async function step(k: number): Promise<void> {
    clock.t = T0 + k * STEP;
    const id = randomUUID();
    const event: StoredEvent = {
      id,
      org_id: orgId,
      type: 'message.created',
      phone_id: null,
      created_at: clock.now().toISOString(),
      body: JSON.stringify({ event_id: id, n: k }),
    };
    await store.scheduleEvents([event], clock.now());
    worker.wake();
    await settle();
  }

  const subscription = (id: string) => t.prisma.webhookSubscription.findUniqueOrThrow({ where: { id } });
  const disabledEvents = () => t.prisma.outboxEvent.findMany({ where: { org_id: orgId, type: SUBSCRIPTION_DISABLED_EVENT } });

  it('keeps a failing subscription until its streak reaches 5 days, then disables it and emits one event', async () => {
    // Day 0 .. 4d18h: both fail at every step, except one success of `recovers` on day 3.
    for (let k = 0; k < 20; k++) {
      recoversHealthy = k === 12;
      await step(k);
    }
    recoversHealthy = false;
    const before = await subscription(subs.always);
    expect(before).toMatchObject({ is_subscribed: true, disabled_reason: null });
    expect(before.failing_since?.getTime()).toBe(T0);
    expect(await disabledEvents()).toHaveLength(0);
    expect(hits.always).toBeGreaterThan(20);

    // 5 days after the first failure: the next failures (several deliveries in one batch) disable it.
    const due = await pool.query(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE subscription_id = $1 AND next_attempt_at <= $2`, [
      subs.always,
      new Date(T0 + 20 * STEP),
    ]);
    expect(due.rows[0].n).toBeGreaterThan(1);
    await step(20);
    const after = await subscription(subs.always);
    expect(after).toMatchObject({ is_subscribed: false, disabled_reason: 'failing' });
    const events = await disabledEvents();
    expect(events).toHaveLength(1);
    expect(events[0].payload).toMatchObject({
      id: subs.always,
      reason: 'failing',
      failing_since: new Date(T0).toISOString(),
      disabled_at: new Date(T0 + 20 * STEP).toISOString(),
    });
    expect(registryPayload(events[0])).toMatchObject({ is_subscribed: false, integration_name: 'message.created', org_id: orgId }); // the whole subscription

    // A day more: nothing is sent to it any more, its leftovers are cancelled, and no second event.
    const sentBefore = hits.always;
    for (let k = 21; k <= 24; k++) await step(k);
    expect(hits.always).toBe(sentBefore);
    expect(await disabledEvents()).toHaveLength(1);
    const open = await pool.query(
      `SELECT count(*)::int AS n FROM webhook_deliveries WHERE subscription_id = $1 AND next_attempt_at <= $2`,
      [subs.always, clock.now()],
    );
    expect(open.rows[0].n).toBe(0);
  });

  it('does not disable a subscription that had a success inside the window', async () => {
    const s = await subscription(subs.recovers);
    expect(s).toMatchObject({ is_subscribed: true, disabled_reason: null });
    // Its streak restarted with the first failure after the day-3 success (step 13 = 3 d 6 h).
    expect(s.failing_since?.getTime()).toBe(T0 + 13 * STEP);
    expect(hits.recovers).toBeGreaterThan(hits.always);
    expect((await disabledEvents()).map((e) => (e.payload as { id: string }).id)).not.toContain(subs.recovers);
  });

  it('publishes the disabling event to JetStream exactly once (outbox relay, Nats-Msg-Id = event id)', async () => {
    const relay = new OutboxRelay(t.prisma, nc, namespace, pino({ level: 'silent' }));
    expect(await relay.relayOnce()).toBe(1);
    expect(await relay.relayOnce()).toBe(0);
    const jsm = await nc.jetstreamManager();
    const subject = eventSubject(namespace, SUBSCRIPTION_DISABLED_EVENT);
    const info = await jsm.streams.info(streamNames(namespace).events, { subjects_filter: subject });
    expect(info.state.subjects).toEqual({ [subject]: 1 });
    const msg = await jsm.streams.getMessage(streamNames(namespace).events, { last_by_subj: subject });
    const published = msg.json<{ event_id: string; data: { id: string; reason: string } }>();
    expect(published.event_id).toBe((await disabledEvents())[0].id);
    expect(published.data).toMatchObject({ id: subs.always, reason: 'failing' });
    expect(published.data).toEqual((await disabledEvents())[0].payload);
    expect(() => registryPayload({ type: SUBSCRIPTION_DISABLED_EVENT, payload: published.data })).not.toThrow();
  });
});
