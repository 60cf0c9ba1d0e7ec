import { KafkaTlsFront, PrivateKafkaMock, randomSuffix, testCertificates, type TestCertificates } from '@mapi/testing';
import { Kafka, logLevel, type Consumer } from 'kafkajs';
import {
  arrival,
  deliversAcrossKills,
  orderedThrough,
  outOfOrder,
  refusedAndDelivered,
  useSinkStack,
  type Listener,
} from './support/event-sinks';

/**
 * Kafka sinks against librdkafka's mock cluster (PrivateKafkaMock, built by scripts/ensure-kafka-mock.sh
 * from Debian's librdkafka), NOT an Apache Kafka: none can run on these machines (docs/services/
 * event-sinks.md, "Kafka"). It is the closest real thing: a Kafka-protocol broker for tests that kafkajs
 * talks to over TCP as to a broker (metadata, acks = all produce, consumer groups, fetch). Here: every
 * event arrives keyed by its chat, in each chat's order, with the dispatcher SIGKILLed mid-stream; none is
 * lost while the broker is down 8 s mid-stream (the mock drops and refuses connections; it is not a process
 * restart: the mock keeps its log in memory only); a client certificate the broker refuses shows in the
 * delivery log (a TLS front: the mock has no TLS, and no SASL, so SASL is not tested here).
 */
/** A kafkajs consumer of `topic` from its beginning: arrivals in the order consumed; `keyMismatches` counts records not keyed by their chat. */
async function listenKafka(bootstrap: string, topic: string): Promise<Listener & { keyMismatches: number }> {
  let closing = false;
  // through an outage of the broker the consumer fails and restarts, until the test closes it
  const retry = { retries: 30, maxRetryTime: 1_000, restartOnFailure: async () => !closing };
  const consumer: Consumer = new Kafka({ brokers: [bootstrap], logLevel: logLevel.NOTHING, retry }).consumer({
    groupId: `e2e-${randomSuffix(6)}`,
    retry,
  });
  const got: Listener & { keyMismatches: number } = {
    arrivals: [],
    keys: new Set(),
    headers: {},
    keyMismatches: 0,
    close: async () => {
      closing = true;
      await consumer.disconnect().catch(() => undefined);
    },
  };
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  await consumer.run({
    eachMessage: async ({ topic: from, message }) => {
      const a = arrival(String(message.value));
      if ((message.key ? String(message.key) : undefined) !== a.chat) got.keyMismatches++;
      got.keys.add(from);
      got.headers = Object.fromEntries(Object.entries(message.headers ?? {}).map(([k, v]) => [k, String(v)]));
      got.arrivals.push(a);
    },
  });
  return got;
}

describe('event sinks: Kafka (against a Kafka-protocol test broker, not Apache Kafka)', () => {
  let mock: PrivateKafkaMock;
  let certs: TestCertificates;
  let front: KafkaTlsFront;
  const listeners: Listener[] = [];
  const topic = `crm-events-${randomSuffix(4)}`;

  const env = useSinkStack(async () => {
    mock = await PrivateKafkaMock.start({ topics: { [topic]: 4, [`${topic}-outage`]: 4, [`${topic}-tls`]: 1 } });
    certs = testCertificates();
    front = await KafkaTlsFront.start(Number(mock.hostPort.split(':')[1]), certs);
  });

  afterAll(async () => {
    for (const l of listeners) await l.close();
    await front?.close();
    await mock?.destroy();
  });

  it("delivers every event keyed by its chat, in each chat's order, while the dispatcher is SIGKILLed mid-stream", async () => {
    const got = await listenKafka(mock.hostPort, topic);
    listeners.push(got);
    // a Kafka sink orders by chat unless told not to (its record key is the chat id)
    await deliversAcrossKills(env, { transport: 'kafka', url: mock.url, config: { topic } }, got, 'kafka sink (librdkafka mock cluster)');
    expect(outOfOrder(got.arrivals)).toBe(0);
    expect(got.keyMismatches).toBe(0);
    expect([...got.keys]).toEqual([topic]);
    expect(got.headers).toMatchObject({ 'content-type': 'application/json', event: 'message.created' });
    expect(got.headers['webhook-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  // down longer than a delivery's timeout (WEBHOOK_DELIVERY_TIMEOUT_MS, 5 s): kafkajs's own retries ride out shorter outages
  it("loses none, in each chat's order, when the broker is down for 8 s mid-stream", async () => {
    const outage = `${topic}-outage`;
    const got = await listenKafka(mock.hostPort, outage);
    listeners.push(got);
    const run = await orderedThrough(env, { transport: 'kafka', url: mock.url, config: { topic: outage } }, got, {
      type: 'chat.created',
      total: 300,
      // right after the first batch: the mock delivers so fast that waiting for arrivals would find the stream sent
      at: 0,
      disrupt: async () => {
        await mock.down();
        await new Promise((r) => setTimeout(r, 8_000));
        await mock.up();
      },
    });
    expect(run.failedAttempts).toBeGreaterThan(0);
    process.stdout.write(
      `kafka sink, broker down 8 s mid-stream: ${run.total} events in ${run.tookMs} ms, in order per chat, ${run.duplicates} duplicates, ${run.failedAttempts} failed attempts retried\n`,
    );
  }, 120_000);

  it('shows a client certificate the broker refuses in the delivery log, and keeps delivering to the others', async () => {
    const tlsTopic = `${topic}-tls`;
    await refusedAndDelivered(
      env,
      {
        bad: {
          transport: 'kafka',
          url: `kafkas://127.0.0.1:${front.port}`,
          config: { topic: tlsTopic },
          credentials: { tlsCa: certs.ca, tlsCert: certs.rogueCert, tlsKey: certs.rogueKey },
        },
        good: { transport: 'kafka', url: mock.url, config: { topic: tlsTopic } },
      },
      /^kafka: Connection error: .*(certificate|disconnected before secure TLS connection)/i,
    );
    const keyBody = certs.rogueKey.split('\n')[1];
    expect(env.dispatcher.lines.join('\n')).not.toContain(keyBody);
  });
});
