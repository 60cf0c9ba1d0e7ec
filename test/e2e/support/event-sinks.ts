import { writeEvents } from '@mapi/events';
import { AppProcess, createOrg, createToken, stubEvents } from '@mapi/testing';
import { connect as amqpConnect, type ChannelModel } from 'amqplib';
import { connectAsync as mqttConnect } from 'mqtt';
import type { NatsConnection } from 'nats';
import { client, until } from './http';
import { startStack, type Stack } from './stack';

/**
 * What the AMQP, MQTT, NATS and Kafka sink e2e files share: the stack with the dispatcher, the stream of
 * events and its checks (every event by event_id, each chat's order), the broker consumers that
 * collect what arrives, and the tests every transport runs (a SIGKILLed dispatcher, a wrong password).
 */

/** The dispatcher's settings for sink tests: brokers on 127.0.0.1 allowed, short leases and retries. */
export const SINK_STACK_ENV = {
  BAILEYS_AUTH_KEY: Buffer.alloc(32, 5).toString('base64'),
  WEBHOOK_ALLOW_CIDRS: '127.0.0.1/32',
  WEBHOOK_CLAIM_LEASE_MS: '5000',
  WEBHOOK_INTAKE_ACK_WAIT_MS: '3000',
  WEBHOOK_POLL_INTERVAL_MS: '50',
  WEBHOOK_DELIVERY_TIMEOUT_MS: '5000',
  // about 40 s of retries: a broker restarted mid-stream (a private RabbitMQ takes 5-10 s here) exhausts none
  WEBHOOK_RETRY_SCHEDULE_MS: '0,500,1000,2000,3000,5000,5000,5000,5000,5000,5000,5000',
  WEBHOOK_ENDPOINT_RATE_PER_SECOND: '100000',
};

/** What a sink test's broker consumer saw of one message: the body's ids, in arrival order. */
export interface Arrival {
  event_id: string;
  chat: string;
  n: number;
}

export const arrival = (body: string): Arrival => {
  const b = JSON.parse(body);
  return { event_id: b.event_id, chat: b.data?.chat_id, n: b.data?.n };
};

export type SinkEnv = Awaited<ReturnType<typeof sinkStack>>;
/** What a broker consumer collected: the arrivals in order, the routing keys / topics / subjects, the last headers. */
export interface Listener {
  arrivals: Arrival[];
  keys: Set<string>;
  headers: Record<string, unknown>;
  close(): Promise<void>;
}

/** A stack with the dispatcher in every role, and an organization with an API client. */
export async function sinkStack() {
  const stack: Stack = await startStack(SINK_STACK_ENV, { services: ['webhooks-dispatcher'] });
  const org = await createOrg(stack.prisma);
  const api = client(stack.baseUrl, (await createToken(stack.prisma, org.id)).token);
  let dispatcher: AppProcess = stack.apps['webhooks-dispatcher'];
  return {
    stack,
    api,
    orgId: org.id,
    get dispatcher() {
      return dispatcher;
    },
    /** SIGKILL (nothing flushed, leases left behind) and a new dispatcher at once. */
    async killDispatcher() {
      await dispatcher.kill();
      dispatcher = await stack.startService('webhooks-dispatcher');
    },
  };
}

/**
 * For a transport's sink describe: a 4-minute test timeout; a sink stack started in beforeAll beside
 * `alongside` (the transport's own brokers and consumers), stopped after all; answers its SinkEnv.
 */
export function useSinkStack(alongside: () => Promise<unknown>): SinkEnv {
  jest.setTimeout(240_000);
  let env: SinkEnv | undefined;
  beforeAll(async () => void ([env] = await Promise.all([sinkStack(), alongside()])), 120_000);
  afterAll(async () => env?.stack.stop());
  return new Proxy({} as SinkEnv, {
    get: (_target, key) => {
      if (!env) throw new Error('the sink stack starts in beforeAll');
      return Reflect.get(env, key);
    },
  });
}

/**
 * Writes `total` message.created events of `orgId` to the outbox in batches, over `chats` chats
 * (data: chat_id, n = the order within the whole stream); `afterBatch` runs after each batch.
 */
export async function emit(
  stack: Stack,
  orgId: string,
  total: number,
  options: {
    chats?: number;
    batch?: number;
    type?: 'message.created' | 'chat.created' | 'message.updated';
    afterBatch?: (i: number) => Promise<void>;
  } = {},
): Promise<void> {
  const { chats = 4, batch = 50, type = 'message.created' } = options;
  for (let written = 0, i = 0; written < total; i++) {
    const n = Math.min(batch, total - written);
    await stack.prisma.$transaction((tx) =>
      writeEvents(
        tx,
        stubEvents(
          Array.from({ length: n }, (_, k) => ({
            type,
            org_id: orgId,
            phone_id: null,
            data: { chat_id: `chat-${(written + k) % chats}`, n: written + k },
          })),
        ),
      ),
    );
    written += n;
    await options.afterBatch?.(i);
    await new Promise((r) => setTimeout(r, 30));
  }
}

/** The ids of the organization's events of `type` in the outbox. */
export async function emittedIds(stack: Stack, orgId: string, type = 'message.created'): Promise<Set<string>> {
  return new Set((await stack.prisma.outboxEvent.findMany({ where: { org_id: orgId, type }, select: { id: true } })).map((e) => e.id));
}

/** Waits until every emitted id arrived; fails naming how many are missing. Every arrival must be an emitted id. */
export async function expectEvery(arrivals: Arrival[], emitted: Set<string>, timeoutMs = 90_000): Promise<void> {
  const seen = () => new Set(arrivals.map((a) => a.event_id));
  await until(
    async () => [...emitted].filter((id) => !seen().has(id)).length,
    (missing) => missing === 0,
    timeoutMs,
    'every event at the broker',
  );
  for (const a of arrivals) if (!emitted.has(a.event_id)) throw new Error(`an event that was not emitted arrived: ${a.event_id}`);
}

/** Per chat, how often a first arrival came after a later event of the same chat (0: in order per chat). */
export function outOfOrder(arrivals: Arrival[]): number {
  const firstSeen = new Set<string>();
  const last = new Map<string, number>();
  let inversions = 0;
  for (const a of arrivals) {
    if (firstSeen.has(a.event_id)) continue;
    firstSeen.add(a.event_id);
    if ((last.get(a.chat) ?? -1) > a.n) inversions++;
    else last.set(a.chat, a.n);
  }
  return inversions;
}

/** Waits for a sink's delivery log to show a failed attempt, and answers it. */
export async function failedAttempt(api: ReturnType<typeof client>, sinkId: string) {
  const log = await until(
    async () => (await api.get(`/event-sinks/${sinkId}/deliveries`)).body,
    (b) => b.count > 0,
    30_000,
    'a logged attempt',
  );
  return log.attempts[0];
}

/** The sink's events of `type` emitted since `before` (the ids of emittedIds then). */
export async function emittedSince(stack: Stack, orgId: string, type: string, before: Set<string>): Promise<Set<string>> {
  return new Set([...(await emittedIds(stack, orgId, type))].filter((id) => !before.has(id)));
}

/**
 * The test of every transport: a sink of message.created (`sink`: the POST body less `events`), 600
 * events with the dispatcher SIGKILLed (and replaced) after the 5th and the 10th batch, every one
 * arriving. Prints the duplicates and the per-chat inversions; answers the sink's id.
 */
export async function deliversAcrossKills(env: SinkEnv, sink: object, got: Listener, label: string): Promise<string> {
  const created = await env.api.post('/event-sinks', { ...sink, events: 'message.created' });
  if (created.status !== 201) throw new Error(`creating the sink answered ${created.status}: ${JSON.stringify(created.body)}`);
  const total = 600;
  let kills = 0;
  await emit(env.stack, env.orgId, total, {
    afterBatch: async (i) => {
      if (i === 4 || i === 9) {
        await env.killDispatcher();
        kills++;
      }
    },
  });
  const emitted = await emittedIds(env.stack, env.orgId);
  if (emitted.size !== total || kills !== 2) throw new Error(`emitted ${emitted.size} events with ${kills} kills`);
  await expectEvery(got.arrivals, emitted);
  process.stdout.write(
    `${label}: ${total} events, ${kills} kills, ${got.arrivals.length - total} duplicates, ${outOfOrder(got.arrivals)} out of order per chat\n`,
  );
  return created.body[0].id;
}

/**
 * An orderByChat sink of `type` (`sink`: the POST body less `events`; config.orderByChat is set),
 * `total` events over 4 chats with `disrupt` run after batch `at` (a dispatcher SIGKILL, a broker
 * restart), once `afterArrivals` of them have arrived when given (so deliveries are under way):
 * every event arrives (by event_id) and no chat's events arrive out of order. `got` must be
 * this sink's alone (a fresh exchange, topic or subject). The sink is deleted after. Answers figures
 * for the test's output.
 */
export async function orderedThrough(
  env: SinkEnv,
  sink: { config: Record<string, unknown> } & Record<string, unknown>,
  got: Listener,
  options: {
    type: 'message.created' | 'chat.created' | 'message.updated';
    total: number;
    at: number;
    afterArrivals?: number;
    disrupt: () => Promise<void>;
  },
): Promise<{ total: number; duplicates: number; tookMs: number; failedAttempts: number; scheduledLate: number }> {
  const created = await env.api.post('/event-sinks', { ...sink, events: options.type, config: { ...sink.config, orderByChat: true } });
  if (created.status !== 201) throw new Error(`creating the sink answered ${created.status}: ${JSON.stringify(created.body)}`);
  expect(created.body[0].config).toMatchObject({ orderByChat: true });
  const before = await emittedIds(env.stack, env.orgId, options.type);
  const started = Date.now();
  // the disruption runs beside the stream: the events after batch `at` are written while it is under way
  let disrupted: Promise<void> | undefined;
  const disrupt = async () => {
    const n = options.afterArrivals ?? 0;
    if (n > 0)
      await until(
        async () => got.arrivals.length,
        (k) => k >= n,
        30_000,
        `${n} arrivals before the disruption`,
      );
    await options.disrupt();
  };
  await emit(env.stack, env.orgId, options.total, {
    type: options.type,
    afterBatch: async (i) => void (i === options.at && (disrupted = disrupt())),
  });
  await disrupted;
  const mine = await emittedSince(env.stack, env.orgId, options.type, before);
  if (mine.size !== options.total) throw new Error(`emitted ${mine.size} events, not ${options.total}`);
  await expectEvery(got.arrivals, mine, 75_000);
  const tookMs = Date.now() - started;
  const inversions = outOfOrder(got.arrivals);
  const log = await env.api.get(`/event-sinks/${created.body[0].id}/deliveries?limit=1000`);
  const failedAttempts = log.body.attempts.filter((a: { success: boolean }) => !a.success).length;
  // how many deliveries the intake scheduled after a later event of their chat (what ordering by
  // delivery id, before the order floor, would have sent out of order)
  const [{ n: scheduledLate }] = await env.stack.prisma.$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM webhook_deliveries b WHERE b.subscription_id = ${created.body[0].id}::uuid AND EXISTS (
      SELECT 1 FROM webhook_deliveries a WHERE a.subscription_id = b.subscription_id AND a.chat_id = b.chat_id AND a.id < b.id AND a.chat_seq > b.chat_seq)`;
  await env.api.delete(`/event-sinks/${created.body[0].id}`);
  if (inversions !== 0) throw new Error(`${inversions} of ${options.total} events arrived after a later event of their chat`);
  return { total: options.total, duplicates: got.arrivals.length - options.total, tookMs, failedAttempts, scheduledLate };
}

/**
 * A wrong password is a failed attempt in the delivery log (matching `refused`), the right one on the
 * same broker delivers, the dispatcher keeps running and never logs the password. `more`: further
 * sinks created before the event; answers their ids.
 */
export async function refusedAndDelivered(
  env: SinkEnv,
  sinks: { bad: object; good: object; more?: object[] },
  refused: RegExp,
): Promise<string[]> {
  const bad = await env.api.post('/event-sinks', { events: 'chat.created', ...sinks.bad });
  const good = await env.api.post('/event-sinks', { events: 'chat.created', ...sinks.good });
  const more = await Promise.all((sinks.more ?? []).map((m) => env.api.post('/event-sinks', { events: 'chat.created', ...m })));
  await emit(env.stack, env.orgId, 1, { type: 'chat.created' });
  const attempt = await failedAttempt(env.api, bad.body[0].id);
  expect(attempt).toMatchObject({ success: false, status_code: null, event_type: 'chat.created' });
  expect(attempt.error).toMatch(refused);
  expect(attempt.error).not.toContain('wrong-password');
  const ok = await until(
    async () => (await env.api.get(`/event-sinks/${good.body[0].id}/deliveries`)).body,
    (b) => b.count > 0,
    30_000,
    'the good sink delivered',
  );
  expect(ok.attempts[0]).toMatchObject({ success: true });
  expect(env.dispatcher.child.exitCode).toBeNull();
  expect(env.dispatcher.lines.join('\n')).not.toContain('wrong-password');
  return more.map((m) => m.body[0].id);
}

/**
 * A RabbitMQ consumer of every routing key of the topic exchange `exchange` (declared here), acking
 * what it took. `durable`: the exchange and a named queue survive a broker restart, and the consumer
 * connects again after one (what the broker held meanwhile arrives then).
 */
export async function listenAmqp(url: string, exchange: string, options: { durable?: boolean } = {}): Promise<Listener> {
  const got: Listener = { arrivals: [], keys: new Set(), headers: {}, close: async () => undefined };
  let conn: ChannelModel | undefined;
  let closing = false;
  const open = async () => {
    const c = await amqpConnect(url);
    conn = c;
    c.on('error', () => undefined);
    c.on('close', () => void (!closing && options.durable && reopen()));
    const ch = await c.createChannel();
    await ch.assertExchange(exchange, 'topic', { durable: !!options.durable, autoDelete: false });
    const { queue } = options.durable
      ? await ch.assertQueue(`${exchange}-consumer`, { durable: true })
      : await ch.assertQueue('', { exclusive: true });
    await ch.bindQueue(queue, exchange, '#');
    await ch.consume(queue, (m) => {
      if (!m) return;
      got.arrivals.push(arrival(m.content.toString()));
      got.keys.add(m.fields.routingKey);
      got.headers = m.properties.headers ?? {};
      ch.ack(m);
    });
  };
  const reopen = async () => {
    while (!closing) {
      if (
        await open().then(
          () => true,
          () => false,
        )
      )
        return;
      await new Promise((r) => setTimeout(r, 250));
    }
  };
  await open();
  got.close = async () => {
    closing = true;
    const ch = await conn?.createChannel().catch(() => undefined);
    await ch?.deleteExchange(exchange).catch(() => undefined);
    if (options.durable) await ch?.deleteQueue(`${exchange}-consumer`).catch(() => undefined);
    await conn?.close().catch(() => undefined);
  };
  return got;
}

/**
 * An MQTT subscriber of `filter` at QoS 1. `persistent`: a session the broker keeps (clean false,
 * reconnecting): what arrives for it while it is away, a broker restart included, comes when it is back.
 * `tls`: the CA and a client certificate (PEM) for an mqtts:// broker that requires one.
 */
export async function listenMqtt(
  url: string,
  filter: string,
  clientId: string,
  options: { persistent?: boolean; tls?: { ca: string; cert: string; key: string } } = {},
): Promise<Listener> {
  const sub = await mqttConnect(url, { clientId, clean: !options.persistent, reconnectPeriod: 250, ...options.tls });
  const got: Listener = { arrivals: [], keys: new Set(), headers: {}, close: async () => void (await sub.endAsync(true)) };
  sub.on('error', () => undefined);
  sub.on('message', (topic, payload) => {
    got.keys.add(topic);
    got.arrivals.push(arrival(payload.toString()));
  });
  await sub.subscribeAsync(filter, { qos: 1 });
  return got;
}

/**
 * What a JetStream stream holds, in stream order, read every 250 ms while open (by sequence, so across
 * a restart of its server): with Nats-Msg-Id the stream keeps each event's first publish.
 */
export function listenStream(nc: NatsConnection, stream: string): Listener {
  let open = true;
  const got: Listener = { arrivals: [], keys: new Set(), headers: {}, close: async () => void (open = false) };
  let next = 1;
  void (async () => {
    while (open) {
      try {
        const jsm = await nc.jetstreamManager();
        const last = (await jsm.streams.info(stream)).state.last_seq;
        for (; next <= last; next++) {
          const m = await jsm.streams.getMessage(stream, { seq: next });
          got.keys.add(m.subject);
          got.arrivals.push(arrival(new TextDecoder().decode(m.data)));
        }
      } catch {
        // the server is restarting: read on when it is back
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  })();
  return got;
}

/** A NATS (core) subscriber of `subject` on the connection `nc`. */
export function listenNats(nc: NatsConnection, subject: string): Listener {
  const sub = nc.subscribe(subject);
  const got: Listener = { arrivals: [], keys: new Set(), headers: {}, close: async () => sub.unsubscribe() };
  void (async () => {
    for await (const m of sub) {
      got.keys.add(m.subject);
      got.arrivals.push(arrival(new TextDecoder().decode(m.data)));
    }
  })();
  return got;
}
