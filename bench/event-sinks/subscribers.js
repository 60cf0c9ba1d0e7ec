'use strict';
/**
 * The consumers at the far end of each sink kind, as a user of the sink would run them. Each calls
 * `onMessage(body, at)` with the delivered JSON body's text and the arrival time (Date.now()), and
 * `close()` undoes what it made. The sink row's transport fields (`sink`) go with it.
 */
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { connect: amqpConnect } = require('amqplib');
const { connectAsync: mqttConnect } = require('mqtt');
const { connect: natsConnect } = require('nats');
const { Kafka, logLevel } = require('kafkajs');
const { PrivateKafkaMock, freePort, randomSuffix } = require('@mapi/testing');
const { startReceiver } = require('../webhooks/receiver');
const { waitFor } = require('../lib/waiting');

const RABBIT_URL = process.env.BENCH_AMQP_URL || 'amqp://127.0.0.1:5672';
const MOSQUITTO_URL = process.env.BENCH_MQTT_URL || 'mqtt://127.0.0.1:1883';

/** The webhook baseline: a local HTTP receiver answering 200. */
async function http(onMessage) {
  const receiver = await startReceiver();
  receiver.state.onRequest = (r) => onMessage(r.body, r.at);
  return { sink: { transport: 'http', url: `${receiver.url}/bench`, config: {} }, close: () => receiver.close() };
}

/** RabbitMQ (the machine's): a topic exchange of the bench's own, an exclusive queue bound with `#`. */
async function amqp(onMessage) {
  const exchange = `mapi-bench-${randomSuffix(4)}`;
  const conn = await amqpConnect(RABBIT_URL);
  const ch = await conn.createChannel();
  await ch.assertExchange(exchange, 'topic', { durable: false, autoDelete: false });
  const { queue } = await ch.assertQueue('', { exclusive: true, autoDelete: true });
  await ch.bindQueue(queue, exchange, '#');
  await ch.consume(queue, (m) => m && onMessage(m.content.toString(), Date.now()), { noAck: true });
  return {
    sink: { transport: 'amqp', url: RABBIT_URL, config: { exchange, orderByChat: false } },
    close: async () => {
      await ch.deleteExchange(exchange).catch(() => undefined);
      await conn.close().catch(() => undefined);
    },
  };
}

/** Mosquitto (the machine's): `<prefix>/#` at QoS 1. */
async function mqtt(onMessage) {
  const prefix = `mapi-bench-${randomSuffix(4)}`;
  const client = await mqttConnect(MOSQUITTO_URL, { clientId: `${prefix}-sub`, clean: true });
  client.on('message', (_topic, payload) => onMessage(payload.toString(), Date.now()));
  await client.subscribeAsync(`${prefix}/#`, { qos: 1 });
  return {
    sink: { transport: 'mqtt', url: MOSQUITTO_URL, config: { topicPrefix: prefix, protocolVersion: 5, orderByChat: false } },
    close: () => client.endAsync(true).catch(() => undefined),
  };
}

/**
 * "The user's" nats-server, started by the bench (JetStream on, a store of its own): a core subscription
 * on `<prefix>.>`; with `jetstream`, a stream on that subject too, so the sink's publishes are
 * JetStream publishes acked by the stream (the core subscriber still sees each message).
 */
function natsKind(jetstream) {
  return async (onMessage) => {
    const port = await freePort();
    const storeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mapi-bench-nats-'));
    const server = spawn(process.env.NATS_SERVER_BIN || 'nats-server', ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir], {
      stdio: 'ignore',
    });
    const url = `nats://127.0.0.1:${port}`;
    let nc;
    await waitFor(
      async () => {
        nc = await natsConnect({ servers: url, reconnect: false, timeout: 1_000 }).catch(() => undefined);
        return !!nc;
      },
      10_000,
      "the bench's nats-server",
    );
    const prefix = `mapi.bench${randomSuffix(4)}`;
    if (jetstream) await (await nc.jetstreamManager()).streams.add({ name: `BENCH_${randomSuffix(4)}`, subjects: [`${prefix}.>`] });
    const sub = nc.subscribe(`${prefix}.>`);
    const decoder = new TextDecoder();
    void (async () => {
      for await (const m of sub) onMessage(decoder.decode(m.data), Date.now());
    })();
    return {
      sink: { transport: 'nats', url, config: { subjectPrefix: prefix, jetstream, orderByChat: false } },
      close: async () => {
        await nc.close().catch(() => undefined);
        server.kill('SIGTERM');
        await new Promise((r) => (server.exitCode !== null ? r() : server.once('exit', r)));
        fs.rmSync(storeDir, { recursive: true, force: true });
      },
    };
  };
}

/**
 * Kafka: librdkafka's mock cluster (scripts/ensure-kafka-mock.sh), the Kafka-protocol broker the tests use —
 * no Apache Kafka runs on these machines (docs/services/event-sinks.md, "Kafka"), so this measures our
 * path and kafkajs against an in-memory broker, not a Kafka cluster's disk. A topic of BENCH_KAFKA_PARTITIONS
 * (4) partitions, a kafkajs consumer group reading it from the beginning.
 */
async function kafka(onMessage) {
  const topic = `mapi-bench-${randomSuffix(4)}`;
  const mock = await PrivateKafkaMock.start({ topics: { [topic]: Number(process.env.BENCH_KAFKA_PARTITIONS || 4) } });
  const consumer = new Kafka({ brokers: [mock.hostPort], logLevel: logLevel.NOTHING }).consumer({
    groupId: `${topic}-sub`,
    // the mock answers a fetch with no new record only at its max wait: kafkajs's 5 s default would be the latency measured
    maxWaitTimeInMs: 20,
  });
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  await consumer.run({ eachMessage: async ({ message }) => onMessage(String(message.value), Date.now()) });
  return {
    sink: { transport: 'kafka', url: mock.url, config: { topic, orderByChat: false } },
    close: async () => {
      await consumer.disconnect().catch(() => undefined);
      await mock.destroy();
    },
  };
}

/** Each kind the bench can measure, by its name in BENCH_SINK_KINDS. */
const KINDS = { http, amqp, mqtt, nats: natsKind(false), 'nats-js': natsKind(true), kafka };

module.exports = { KINDS };
