import { connectAsync } from 'mqtt';
import { portOf, serverNameOf, tlsOf, type ConnectSink } from './sink-transport';

/**
 * MQTT 3.1.1 or 5 (mqtt.js, the maintained Node client): topic `<topicPrefix>/<event name>`, QoS 1, so
 * an event is delivered when the broker's PUBACK comes. No automatic reconnect: a lost connection fails
 * the publishes under way at once (retried by the engine) and the router connects again. With MQTT 5 the
 * webhook headers go as user properties; 3.1.1 has none (the body holds event_id).
 */
export const connectMqtt: ConnectSink = async (o) => {
  const tls = o.url.protocol === 'mqtts:';
  const version = o.config.protocolVersion === 5 ? 5 : 4;
  const client = await connectAsync({
    protocol: tls ? 'mqtts' : 'mqtt',
    host: o.address,
    port: portOf(o.url, 1883, 8883, tls),
    ...serverNameOf(o.url),
    ...tlsOf(o.credentials),
    username: o.credentials.username,
    password: o.credentials.password,
    protocolVersion: version,
    clientId: o.clientName.slice(0, 23),
    clean: true,
    reconnectPeriod: 0,
    connectTimeout: o.timeoutMs,
  });
  let closed = false;
  let failure: Error | undefined;
  // mqtt.js keeps a QoS 1 publish in flight across a lost connection (for a reconnect that never comes
  // here): it would be answered only by the router's timeout, and a timeout waits a minute to be retried.
  // So a lost connection fails the publishes under way at once (retried on the schedule, on a new connection).
  const inFlight = new Set<(err: Error) => void>();
  client.on('error', (err) => (failure = err));
  client.on('close', () => {
    closed = true;
    for (const fail of inFlight) fail(failure ?? new Error('connection closed'));
    inFlight.clear();
  });
  const prefix = String(o.config.topicPrefix ?? 'mapi');
  return {
    get closed() {
      return closed || !client.connected;
    },
    publish: async (m) => {
      if (closed) throw failure ?? new Error('connection closed');
      let fail!: (err: Error) => void;
      const lost = new Promise<never>((_, reject) => (fail = reject));
      inFlight.add(fail);
      try {
        await Promise.race([
          client.publishAsync(`${prefix}/${m.event}`, m.body, {
            qos: 1,
            ...(version === 5 ? { properties: { contentType: 'application/json', userProperties: m.headers } } : {}),
          }),
          lost,
        ]);
      } finally {
        inFlight.delete(fail);
      }
    },
    close: async () => {
      closed = true;
      await client.endAsync(true).catch(() => undefined);
    },
  };
};
