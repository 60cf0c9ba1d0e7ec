import { connect, type NatsConnection } from 'nats';

/** A NATS connection that keeps reconnecting; `name` shows in the server's connection list. */
export function connectNats(url: string, name: string): Promise<NatsConnection> {
  return connect({
    servers: url.split(',').map((s) => s.trim()),
    name,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 1_000,
    pingInterval: 10_000,
  });
}

/** `<namespace>.<subject>`: one deployment (or test run) never answers another's requests. */
export const namespaced = (namespace: string, subject: string) => `${namespace}.${subject}`;
