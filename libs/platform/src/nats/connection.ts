import { connect, type NatsConnection } from 'nats';

/** A NATS connection that keeps reconnecting; `name` shows in the server's connection list. */
export function connectNats(url: string, name: string): Promise<NatsConnection> {
  return connect({
    servers: url.split(',').map((s) => s.trim()),
    name,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 1_000,
    pingInterval: 10_000,
    // nats.js otherwise builds an Error (a captured stack) for every request and every JetStream
    // publish, in case it times out: a real share of a busy publisher's CPU (the chats ingestion). Timeouts
    // still fail with NatsError TIMEOUT; only the caller's stack is missing from it.
    noAsyncTraces: true,
  });
}

/** `<namespace>.<subject>`: one deployment (or test run) never answers another's requests. */
export const namespaced = (namespace: string, subject: string) => `${namespace}.${subject}`;
