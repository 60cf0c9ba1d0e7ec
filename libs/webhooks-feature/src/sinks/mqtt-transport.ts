import { connectAsync } from 'mqtt';
import { portOf, tlsOf, type ConnectSink } from './sink-transport';

/**
 * MQTT 3.1.1 or 5 (mqtt.js, the maintained Node client): topic `<topicPrefix>/<event name>`, QoS 1, so
 * an event is delivered when the broker's PUBACK comes. No automatic reconnect: a lost connection fails
 * the publishes under way (retried by the engine) and the router connects again. With MQTT 5 the
 * webhook headers go as user properties; 3.1.1 has none (the body holds event_id).
 */
export const connectMqtt: ConnectSink = async (o) => {
  const tls = o.url.protocol === 'mqtts:';
  const version = o.config.protocolVersion === 5 ? 5 : 4;
  const client = await connectAsync({
    protocol: tls ? 'mqtts' : 'mqtt',
    host: o.address,
    port: portOf(o.url, 1883, 8883, tls),
    servername: o.url.hostname,
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
  client.on('error', (err) => (failure = err));
  client.on('close', () => (closed = true));
  const prefix = String(o.config.topicPrefix ?? 'mapi');
  return {
    get closed() {
      return closed || !client.connected;
    },
    publish: async (m) => {
      if (closed) throw failure ?? new Error('connection closed');
      await client.publishAsync(`${prefix}/${m.event}`, m.body, {
        qos: 1,
        ...(version === 5 ? { properties: { contentType: 'application/json', userProperties: m.headers } } : {}),
      });
    },
    close: async () => {
      closed = true;
      await client.endAsync(true).catch(() => undefined);
    },
  };
};
