import { randomUUID } from 'node:crypto';
import type { LookupFunction } from 'node:net';
import { AddressPolicy, HttpSender } from '@mapi/platform';
import { KafkaTlsFront, PrivateKafkaMock, testCertificates, type TestCertificates } from '@mapi/testing';
import { Kafka, logLevel } from 'kafkajs';
import pino from 'pino';
import { connectKafka } from './kafka-transport';
import { SinkSecrets, credentialsAad } from './sink-secrets';
import { SinkSender } from './sink-sender';
import type { SinkTarget } from './sink-transport';

/**
 * The Kafka transport under the SinkSender, against librdkafka's mock cluster (PrivateKafkaMock: no
 * Apache Kafka runs on these machines; this test broker speaks the Kafka wire protocol over TCP): records
 * keyed by chat id on one partition per chat in order, the headers, a broker that is down as a failed
 * delivery (never a throw), the address policy on the brokers the cluster advertises,
 * and TLS certificates refused at the handshake (a TLS front, since the mock has none). SASL is not
 * tested here: the mock does not speak it.
 */
jest.setTimeout(60_000);

const key = Buffer.alloc(32, 7);
const secrets = new SinkSecrets(key);
const orgId = randomUUID();
const integrationId = randomUUID();
const logger = pino({ level: 'silent' });
const topic = 'crm-events';

describe('Kafka sink transport (librdkafka mock cluster)', () => {
  let mock: PrivateKafkaMock;
  let sender: SinkSender;
  let certs: TestCertificates;
  const target = (over: Partial<SinkTarget> = {}): SinkTarget => ({
    transport: 'kafka',
    transport_config: { topic, saslMechanism: 'plain', orderByChat: true },
    credentials: null,
    org_id: orgId,
    integration_id: integrationId,
    type: 'message.created',
    event_id: randomUUID(),
    ...over,
  });
  const body = (t: SinkTarget, chat: string | null, n: number) =>
    JSON.stringify({ event: t.type, event_id: t.event_id, org_id: orgId, data: chat ? { chat_id: chat, n } : { n } });

  beforeAll(async () => {
    mock = await PrivateKafkaMock.start({ topics: { [topic]: 4, 'down-test': 1 } });
    sender = new SinkSender(new HttpSender(new AddressPolicy(['127.0.0.1/32']), 3_000), secrets, 3_000, logger);
    certs = testCertificates();
  }, 120_000);

  afterAll(async () => {
    await sender?.close();
    await mock?.destroy();
  });

  it("publishes each event keyed by its chat, so a chat's events are on one partition in order, with the webhook headers", async () => {
    const sent: { chat: string | null; n: number; id: string }[] = [];
    for (let n = 0; n < 24; n++) {
      const chat = n % 8 === 7 ? null : `chat-${n % 3}`;
      const t = target();
      const res = await sender.sendToSink(`kafka://${mock.hostPort}`, body(t, chat, n), { 'webhook-id': t.event_id }, t);
      expect(res).toMatchObject({ delivered: true, error: null, status: null });
      sent.push({ chat, n, id: t.event_id });
    }
    const consumer = new Kafka({ brokers: [mock.hostPort], logLevel: logLevel.NOTHING }).consumer({ groupId: `g-${randomUUID()}` });
    const got: { partition: number; key: string | null; n: number; headers: Record<string, string> }[] = [];
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    const all = new Promise<void>((resolve) =>
      consumer.run({
        eachMessage: async ({ partition, message }) => {
          const headers = Object.fromEntries(Object.entries(message.headers ?? {}).map(([k, v]) => [k, String(v)]));
          got.push({ partition, key: message.key ? String(message.key) : null, n: JSON.parse(String(message.value)).data.n, headers });
          if (got.length === sent.length) resolve();
        },
      }),
    );
    await all;
    await consumer.disconnect();
    for (const chat of ['chat-0', 'chat-1', 'chat-2']) {
      const mine = got.filter((g) => g.key === chat);
      expect(new Set(mine.map((g) => g.partition)).size).toBe(1);
      expect(mine.map((g) => g.n)).toEqual(sent.filter((s) => s.chat === chat).map((s) => s.n));
    }
    expect(
      got
        .filter((g) => g.key === null)
        .map((g) => g.n)
        .sort((a, b) => a - b),
    ).toEqual([7, 15, 23]);
    const first = got.find((g) => g.n === 0);
    expect(first?.headers).toEqual({ 'webhook-id': sent[0].id, 'content-type': 'application/json', event: 'message.created' });
  });

  // (a missing topic is not tested: the mock creates any topic a client names, whatever the client asks)
  it('answers a broker that is down as a failed delivery, and delivers again once it is up', async () => {
    const t = () => target({ transport_config: { topic: 'down-test' } });
    const ok = t();
    expect((await sender.sendToSink(`kafka://${mock.hostPort}`, body(ok, 'c', 1), {}, ok)).delivered).toBe(true);
    await mock.down();
    const refused = t();
    const failed = await sender.sendToSink(`kafka://${mock.hostPort}`, body(refused, 'c', 2), {}, refused);
    expect(failed).toMatchObject({ delivered: false });
    expect(failed.error).toMatch(/^kafka: /);
    await mock.up();
    const again = t();
    expect(await sender.sendToSink(`kafka://${mock.hostPort}`, body(again, 'c', 3), {}, again)).toMatchObject({ delivered: true });
  });

  it('refuses a broker address that the policy refuses, the ones the cluster advertises included', async () => {
    const closed = new SinkSender(new HttpSender(new AddressPolicy([]), 3_000), secrets, 3_000, logger);
    const t = target();
    const res = await closed.sendToSink(`kafka://${mock.hostPort}`, body(t, 'c', 0), {}, t);
    await closed.close();
    expect(res.error).toMatch(/^kafka: address 127\.0\.0\.1 is not allowed/);
    // the name "localhost" passes; the cluster answers its metadata with 127.0.0.1, which does not
    const lookup: LookupFunction = (host, _o, cb) =>
      host === 'localhost' ? cb(null, '127.0.0.1', 4) : cb(new Error(`address ${host} is not allowed`), '', 0);
    const port = Number(mock.hostPort.split(':')[1]);
    const conn = await connectKafka({
      url: new URL(`kafka://localhost:${port}`),
      address: '127.0.0.1',
      lookup,
      config: { topic },
      credentials: {},
      timeoutMs: 3_000,
      clientName: 'policy-test',
    });
    try {
      await expect(conn.publish({ event: 'message.created', eventId: randomUUID(), body: '{}', headers: {} })).rejects.toThrow(
        /address 127\.0\.0\.1 is not allowed/,
      );
    } finally {
      await conn.close();
    }
  });

  it('fails at the TLS handshake on a client certificate the broker does not trust, and on a broker certificate from another CA', async () => {
    const front = await KafkaTlsFront.start(Number(mock.hostPort.split(':')[1]), certs);
    const seal = (c: object) => secrets.seal(c, credentialsAad(orgId, integrationId));
    try {
      const url = `kafkas://127.0.0.1:${front.port}`;
      const rogue = target({ credentials: seal({ tlsCa: certs.ca, tlsCert: certs.rogueCert, tlsKey: certs.rogueKey }) });
      const refused = await sender.sendToSink(url, body(rogue, 'c', 0), {}, rogue);
      expect(refused).toMatchObject({ delivered: false, status: null });
      expect(refused.error).toMatch(/^kafka: Connection error: .*(certificate|handshake|disconnected before secure TLS)/i);
      expect(refused.error).not.toContain('PRIVATE KEY');
      const untrusted = target({ credentials: seal({ tlsCert: certs.clientCert, tlsKey: certs.clientKey }) });
      const notVerified = await sender.sendToSink(url, body(untrusted, 'c', 1), {}, untrusted);
      expect(notVerified.error).toMatch(/^kafka: .*(self[- ]signed|unable to (get|verify))/i);
    } finally {
      await front.close();
    }
  });
});
