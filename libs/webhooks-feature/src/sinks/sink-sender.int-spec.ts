import { randomUUID } from 'node:crypto';
import { AddressPolicy, HttpSender } from '@mapi/platform';
import { connect as amqpConnect } from 'amqplib';
import pino from 'pino';
import { SinkSecrets, credentialsAad } from './sink-secrets';
import { SinkSender } from './sink-sender';
import type { SinkTarget } from './sink-transport';

/**
 * The router below the delivery worker, against the machine's RabbitMQ (127.0.0.1:5672): the webhook
 * address policy applies to a broker's address (loopback refused unless allowed, as for webhooks), the
 * credentials open only with the key and the sink they were sealed for, and every failure is an answer.
 */
const key = Buffer.alloc(32, 3);
const secrets = new SinkSecrets(key);
const logger = pino({ level: 'silent' });
const orgId = randomUUID();
const integrationId = randomUUID();
const sealed = (c: object, integration = integrationId) => secrets.seal(c, credentialsAad(orgId, integration));
const target = (over: Partial<SinkTarget> = {}): SinkTarget => ({
  transport: 'amqp',
  transport_config: { exchange: 'amq.topic' },
  credentials: sealed({ username: 'guest', password: 'guest' }),
  org_id: orgId,
  integration_id: integrationId,
  type: 'message.created',
  event_id: randomUUID(),
  ...over,
});
const senderWith = (allow: string[]) => new SinkSender(new HttpSender(new AddressPolicy(allow), 3_000), secrets, 3_000, logger);

describe('SinkSender', () => {
  const senders: SinkSender[] = [];
  const make = (allow: string[]) => {
    const s = senderWith(allow);
    senders.push(s);
    return s;
  };
  afterAll(() => Promise.all(senders.map((s) => s.close())));

  it('refuses a broker on a loopback address unless allowed, as the webhook policy does, without connecting', async () => {
    const res = await make([]).sendToSink('amqp://127.0.0.1:5672', '{}', {}, target());
    expect(res).toMatchObject({ delivered: false, status: null });
    expect(res.error).toMatch(/^amqp: address 127\.0\.0\.1 is not allowed/);
    const byName = await make([]).sendToSink('amqp://localhost:5672', '{}', {}, target());
    expect(byName.error).toMatch(/not allowed/);
  });

  it('publishes to RabbitMQ when allowed: the body, routing key = event name, webhook-id header, on the confirm', async () => {
    const conn = await amqpConnect('amqp://guest:guest@127.0.0.1:5672');
    const ch = await conn.createChannel();
    const { queue } = await ch.assertQueue('', { exclusive: true });
    const rk = `message.created`;
    await ch.bindQueue(queue, 'amq.topic', rk);
    const t = target();
    const body = JSON.stringify({ event: 'message.created', event_id: t.event_id });
    const sender = make(['127.0.0.1/32']);
    const res = await sender.sendToSink('amqp://127.0.0.1:5672', body, { 'webhook-id': t.event_id }, t);
    expect(res).toMatchObject({ delivered: true, error: null });
    const got = await new Promise<{ body: string; rk: string; id: unknown }>((resolve) =>
      ch.consume(
        queue,
        (m) => m && resolve({ body: m.content.toString(), rk: m.fields.routingKey, id: m.properties.headers?.['webhook-id'] }),
        {
          noAck: true,
        },
      ),
    );
    expect(got).toEqual({ body, rk, id: t.event_id });
    // the pooled connection serves the next one
    expect((await sender.sendToSink('amqp://127.0.0.1:5672', body, {}, t)).delivered).toBe(true);
    await conn.close();
  });

  it('answers a failure, never throws: credentials of another sink, no key, an unknown transport', async () => {
    const sender = make(['127.0.0.1/32']);
    const moved = await sender.sendToSink(
      'amqp://127.0.0.1:5672',
      '{}',
      {},
      target({ credentials: sealed({ password: 'x' }, randomUUID()) }),
    );
    expect(moved.error).toMatch(/^amqp: the stored credentials do not open with BAILEYS_AUTH_KEY/);
    const keyless = new SinkSender(new HttpSender(new AddressPolicy(['127.0.0.1/32']), 3_000), new SinkSecrets(null), 3_000, logger);
    senders.push(keyless);
    expect((await keyless.sendToSink('amqp://127.0.0.1:5672', '{}', {}, target())).error).toMatch(/BAILEYS_AUTH_KEY is not set/);
    expect((await sender.sendToSink('pulsar://127.0.0.1:6650', '{}', {}, target({ transport: 'pulsar' }))).error).toBe(
      'pulsar: unknown transport pulsar',
    );
  });

  it('times out on a broker that accepts the connection and never answers', async () => {
    const { createServer } = await import('node:net');
    const silent = createServer(() => undefined);
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const port = (silent.address() as { port: number }).port;
    const res = await new SinkSender(new HttpSender(new AddressPolicy(['127.0.0.1/32']), 500), secrets, 500, logger).sendToSink(
      `amqp://127.0.0.1:${port}`,
      '{}',
      {},
      target(),
    );
    expect(res).toMatchObject({ delivered: false, timedOut: true });
    expect(res.error).toMatch(/timed out after 500 ms connecting/);
    silent.close();
  });
});
