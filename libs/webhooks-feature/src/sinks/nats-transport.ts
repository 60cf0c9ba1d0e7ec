import { connect, headers as natsHeaders } from 'nats';
import { portOf, tlsOf, type ConnectSink } from './sink-transport';

/**
 * NATS (nats.js, the client the project runs on): subject `<subjectPrefix>.<event name>`. With
 * `jetstream`, a JetStream publish with Nats-Msg-Id = event id (the server's duplicate window drops a
 * redelivery) delivered on the stream's ack; without it, a core publish delivered once the server has
 * it (a flush: NATS itself keeps nothing for subscribers that are away).
 */
export const connectNats: ConnectSink = async (o) => {
  const tls = o.url.protocol === 'tls:';
  // TLS checks the certificate against the name: the name is connected to (checked by the policy just before).
  const host = tls ? o.url.hostname : o.address.includes(':') ? `[${o.address}]` : o.address;
  const nc = await connect({
    servers: `${host}:${portOf(o.url, 4222, 4222, tls)}`,
    user: o.credentials.username,
    pass: o.credentials.password,
    token: o.credentials.token,
    ...(tls ? { tls: tlsOf(o.credentials) } : {}),
    name: o.clientName,
    timeout: o.timeoutMs,
    reconnect: false,
  }).catch((err: Error) => {
    // nats-server (--tlsverify) often drops the connection without a TLS alert when it refuses the client certificate
    if (tls && /ECONNRESET|socket hang up/.test(String(err?.message)))
      throw new Error(`${err.message}: the server dropped the TLS connection, as nats-server does when it refuses the client certificate`);
    throw err;
  });
  const prefix = String(o.config.subjectPrefix ?? 'mapi');
  const js = o.config.jetstream === true ? nc.jetstream({ timeout: o.timeoutMs }) : undefined;
  return {
    get closed() {
      return nc.isClosed();
    },
    publish: async (m) => {
      const h = natsHeaders();
      for (const [k, v] of Object.entries(m.headers)) h.set(k, v);
      h.set('content-type', 'application/json');
      const data = new TextEncoder().encode(m.body);
      if (js) {
        await js.publish(`${prefix}.${m.event}`, data, { msgID: m.eventId, headers: h });
      } else {
        nc.publish(`${prefix}.${m.event}`, data, { headers: h });
        await nc.flush();
      }
    },
    close: async () => {
      await nc.close().catch(() => undefined);
    },
  };
};
