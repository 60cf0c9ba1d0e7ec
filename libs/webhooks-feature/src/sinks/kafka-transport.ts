import { isIP, Socket, type LookupFunction } from 'node:net';
import { connect as tlsConnect, type ConnectionOptions } from 'node:tls';
import { Kafka, Partitioners, logLevel, type ISocketFactory, type SASLOptions } from 'kafkajs';
import { portOf, tlsOf, type ConnectSink } from './sink-transport';

/** kafkajs reads a broker as host:port split at ':', so an IPv6 bootstrap address goes by this name. */
const IPV6_BOOTSTRAP = 'mapi-bootstrap-ipv6';

/** A delivery's record key: its chat (the body's data.chat_id), so a chat's events share a partition; null when none. */
export function chatKeyOf(body: string): string | null {
  try {
    const chat = (JSON.parse(body) as { data?: { chat_id?: unknown } } | null)?.data?.chat_id;
    return typeof chat === 'string' && chat ? chat : null;
  } catch {
    return null;
  }
}

/**
 * The sockets of a Kafka client: every broker address, the bootstrap one and every one the cluster
 * advertises in its metadata, goes through the webhook address policy's `lookup` before it is
 * connected to (a broker cannot send the dispatcher to a private address). TLS verifies the name.
 */
export function policySocketFactory(lookup: LookupFunction, aliases: Record<string, string> = {}): ISocketFactory {
  return ({ host: given, port, ssl, onConnect }) => {
    const host = aliases[given] ?? given;
    const raw = new Socket();
    const options: ConnectionOptions | null = ssl ? (typeof ssl === 'object' ? ssl : {}) : null;
    const socket = options ? tlsConnect({ ...options, socket: raw, ...(isIP(host) ? {} : { servername: host }) }, onConnect) : raw;
    if (!options) raw.once('connect', onConnect);
    raw.setKeepAlive(true, 60_000);
    lookup(host, {}, (err, address) => (err ? socket.destroy(err) : raw.connect({ host: String(address), port })));
    return socket;
  };
}

/**
 * Kafka (kafkajs, decision text in docs/services/event-sinks.md): every event of the sink to its
 * `topic` (it must exist: no auto-creation), keyed by the chat id, acks = all; delivered when every
 * in-sync replica has it. The record's headers are the webhook headers plus content-type and event (the
 * event name: one topic holds every event name). SASL (PLAIN or SCRAM) with the credentials' username
 * and password, TLS for kafkas:// with their CA and client certificate. kafkajs retries a little
 * within the delivery timeout; past it the delivery engine retries on its schedule.
 */
export const connectKafka: ConnectSink = async (o) => {
  const lookup = o.lookup;
  if (!lookup) throw new Error('no address policy lookup: a Kafka client connects to the brokers the cluster advertises');
  const tls = o.url.protocol === 'kafkas:';
  const c = o.credentials;
  const hostname = o.url.hostname.replace(/^\[|\]$/g, '');
  const bootstrapHost = isIP(hostname) === 6 ? IPV6_BOOTSTRAP : hostname;
  const mechanism = (o.config.saslMechanism ?? 'plain') as 'plain' | 'scram-sha-256' | 'scram-sha-512';
  const sasl: SASLOptions | undefined = c.username && c.password ? { mechanism, username: c.username, password: c.password } : undefined;
  const kafka = new Kafka({
    clientId: o.clientName,
    brokers: [`${bootstrapHost}:${portOf(o.url, 9092, 9093, tls)}`],
    ssl: tls ? tlsOf(c) : false,
    sasl,
    connectionTimeout: o.timeoutMs,
    authenticationTimeout: o.timeoutMs,
    requestTimeout: o.timeoutMs,
    enforceRequestTimeout: true,
    retry: { retries: 2, initialRetryTime: 100, maxRetryTime: 1_000 },
    logLevel: logLevel.NOTHING,
    socketFactory: policySocketFactory(lookup, { [IPV6_BOOTSTRAP]: hostname }),
  });
  const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner, allowAutoTopicCreation: false });
  let closed = false;
  producer.on(producer.events.DISCONNECT, () => (closed = true));
  try {
    await producer.connect();
  } catch (err) {
    await producer.disconnect().catch(() => undefined);
    throw err;
  }
  const topic = String(o.config.topic ?? 'mapi-events');
  return {
    get closed() {
      return closed;
    },
    publish: async (m) => {
      await producer.send({
        topic,
        acks: -1,
        timeout: o.timeoutMs,
        messages: [
          { key: chatKeyOf(m.body), value: m.body, headers: { ...m.headers, 'content-type': 'application/json', event: m.event } },
        ],
      });
    },
    close: async () => {
      closed = true;
      await producer.disconnect().catch(() => undefined);
    },
  };
};
