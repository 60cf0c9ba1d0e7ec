import { PrivateRabbitMQ, randomSuffix } from '@mapi/testing';
import {
  deliversAcrossKills,
  emit,
  emittedIds,
  emittedSince,
  expectEvery,
  failedAttempt,
  listenAmqp,
  orderedThrough,
  outOfOrder,
  refusedAndDelivered,
  useSinkStack,
  type Listener,
} from './support/event-sinks';

/**
 * AMQP sinks against the machine's RabbitMQ (127.0.0.1:5672, guest/guest; scripts/services.sh starts it):
 * events arrive at the exchange with the event name as routing key and the webhook body, a bad
 * password is a failed attempt in the delivery log (the dispatcher keeps running and delivering), a
 * dispatcher SIGKILLed mid-stream loses nothing, and with orderByChat each chat's order holds across
 * that SIGKILL. A RabbitMQ node of the test's own (never the shared one) is SIGKILLed and restarted
 * mid-stream: nothing lost, each chat's order kept.
 */
const RABBIT = 'amqp://guest:guest@127.0.0.1:5672';

describe('event sinks: AMQP (RabbitMQ)', () => {
  let main: Listener;
  let own: PrivateRabbitMQ;
  const exchange = `mapi-sink-test-${randomSuffix(4)}`;

  const env = useSinkStack(async () => {
    [main, own] = await Promise.all([listenAmqp(RABBIT, exchange), PrivateRabbitMQ.start()]);
    process.stdout.write(`private rabbitmq-server: first start ${own.lastStartMs} ms (loaded machine)\n`);
  });

  afterAll(async () => {
    await main?.close();
    await own?.destroy();
  });

  it('delivers every event, by routing key = event name, while the dispatcher is SIGKILLed mid-stream', async () => {
    const sink = {
      transport: 'amqp',
      url: 'amqp://127.0.0.1:5672',
      config: { exchange },
      credentials: { username: 'guest', password: 'guest' },
    };
    const id = await deliversAcrossKills(env, sink, main, 'amqp sink');
    expect([...main.keys]).toEqual(['message.created']);
    expect(main.headers['webhook-id']).toEqual(expect.any(String));
    const log = await env.api.get(`/event-sinks/${id}/deliveries?limit=5`);
    expect(log.body.attempts[0]).toMatchObject({ success: true, status_code: null, error: null });
  });

  it("keeps each chat's order with orderByChat, also across a dispatcher SIGKILL", async () => {
    const ordered = `${exchange}-ordered`;
    const got = await listenAmqp(RABBIT, ordered);
    try {
      const sink = { transport: 'amqp', url: 'amqp://127.0.0.1:5672', config: { exchange: ordered } };
      const run = await orderedThrough(env, sink, got, { type: 'chat.created', total: 400, at: 3, disrupt: () => env.killDispatcher() });
      process.stdout.write(
        `amqp sink, orderByChat across a SIGKILL: ${run.total} events in order, ${run.duplicates} duplicates, ` +
          `${run.scheduledLate} scheduled after a later event of their chat (held by the order floor)\n`,
      );
    } finally {
      await got.close();
    }
  });

  it("loses none and keeps each chat's order when its RabbitMQ is SIGKILLed and restarted mid-stream", async () => {
    const name = `${exchange}-restart`;
    // durable: the exchange, and the queue with what it was confirmed, outlive the node's restart
    const got = await listenAmqp(own.url, name, { durable: true });
    try {
      const sink = { transport: 'amqp', url: `amqp://127.0.0.1:${own.port}`, config: { exchange: name } };
      const run = await orderedThrough(env, sink, got, {
        type: 'message.updated',
        total: 300,
        at: 0,
        afterArrivals: 40,
        disrupt: () => own.restart({ kill: true }),
      });
      process.stdout.write(
        `amqp sink, RabbitMQ SIGKILLed and restarted (${own.lastStartMs} ms to start again) mid-stream: ` +
          `${run.total} events in ${run.tookMs} ms, in order per chat, ${run.duplicates} duplicates, ${run.failedAttempts} failed attempts retried\n`,
      );
    } finally {
      await got.close();
    }
  }, 90_000);

  it('measures the cost of orderByChat: the same 400 events over 4 chats, unordered then ordered', async () => {
    const took: Record<string, number> = {};
    for (const orderByChat of [false, true]) {
      const name = `${exchange}-cost-${orderByChat}`;
      const got = await listenAmqp(RABBIT, name);
      const sink = await env.api.post('/event-sinks', {
        transport: 'amqp',
        url: 'amqp://127.0.0.1:5672',
        events: 'message.updated',
        config: { exchange: name, orderByChat },
      });
      const before = await emittedIds(env.stack, env.orgId, 'message.updated');
      const started = Date.now();
      await emit(env.stack, env.orgId, 400, { type: 'message.updated', batch: 400 });
      await expectEvery(got.arrivals, await emittedSince(env.stack, env.orgId, 'message.updated', before));
      took[orderByChat ? 'ordered' : 'unordered'] = Date.now() - started;
      if (orderByChat) expect(outOfOrder(got.arrivals)).toBe(0);
      await env.api.delete(`/event-sinks/${sink.body[0].id}`);
      await got.close();
    }
    process.stdout.write(
      `amqp sink, 400 events over 4 chats in one batch: unordered ${took.unordered} ms, orderByChat ${took.ordered} ms\n`,
    );
  });

  it('shows a bad password and a missing exchange in the delivery log, and keeps delivering', async () => {
    const [missing] = await refusedAndDelivered(
      env,
      {
        bad: {
          transport: 'amqp',
          url: 'amqp://127.0.0.1:5672',
          config: { exchange },
          credentials: { username: 'guest', password: 'wrong-password' },
        },
        // amq.topic: RabbitMQ confirms what no queue is bound for
        good: { transport: 'amqp', url: 'amqp://127.0.0.1:5672', config: { exchange: 'amq.topic' } },
        more: [{ transport: 'amqp', url: 'amqp://127.0.0.1', config: { exchange: `${exchange}-missing` } }],
      },
      /^amqp: .*(ACCESS_REFUSED|403)/,
    );
    expect((await failedAttempt(env.api, missing)).error).toMatch(/NOT_FOUND|404/);
    const before = main.arrivals.length;
    await emit(env.stack, env.orgId, 10);
    await expectEvery(main.arrivals, await emittedIds(env.stack, env.orgId));
    expect(main.arrivals.length).toBeGreaterThanOrEqual(before + 10);
  });
});
