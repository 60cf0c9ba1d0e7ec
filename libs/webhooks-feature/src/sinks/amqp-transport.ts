import { connect } from 'amqplib';
import { portOf, tlsOf, type ConnectSink } from './sink-transport';

/**
 * AMQP 0-9-1 (amqplib, the client RabbitMQ's own tutorials use): a confirm channel; each event is
 * published persistent to the sink's exchange with the event name as routing key, and is delivered
 * when the broker confirms it. A missing exchange or a refused login closes the channel or the
 * connection: the publishes under way fail with the broker's reason, and the router reconnects.
 */
export const connectAmqp: ConnectSink = async (o) => {
  const tls = o.url.protocol === 'amqps:';
  const vhost = decodeURIComponent(o.url.pathname.replace(/^\//, '')) || '/';
  const conn = await connect(
    {
      protocol: tls ? 'amqps' : 'amqp',
      hostname: o.address,
      port: portOf(o.url, 5672, 5671, tls),
      username: o.credentials.username ?? 'guest',
      password: o.credentials.password ?? 'guest',
      vhost,
      heartbeat: 30,
    },
    { timeout: o.timeoutMs, servername: o.url.hostname, ...tlsOf(o.credentials), clientProperties: { connection_name: o.clientName } },
  );
  let closed = false;
  let failure: Error | undefined;
  conn.on('error', (err: Error) => (failure = err));
  conn.on('close', () => (closed = true));
  const channel = await conn.createConfirmChannel().catch(async (err) => {
    await conn.close().catch(() => undefined);
    throw err;
  });
  channel.on('error', (err: Error) => (failure = err));
  channel.on('close', () => {
    closed = true;
    void conn.close().catch(() => undefined);
  });
  const exchange = String(o.config.exchange ?? 'amq.topic');
  return {
    get closed() {
      return closed;
    },
    publish: (m) =>
      new Promise<void>((resolve, reject) => {
        try {
          channel.publish(
            exchange,
            m.event,
            Buffer.from(m.body),
            { persistent: true, contentType: 'application/json', messageId: m.eventId, headers: m.headers },
            (err) => (err ? reject(failure ?? err) : resolve()),
          );
        } catch (err) {
          reject(failure ?? err);
        }
      }),
    close: async () => {
      closed = true;
      await conn.close().catch(() => undefined);
    },
  };
};
