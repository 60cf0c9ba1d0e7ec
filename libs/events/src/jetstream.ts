import { JSONCodec, RetentionPolicy, StorageType, nanos, type JetStreamClient, type NatsConnection, type PubAck } from 'nats';
import { eventSubjectOf } from '@mapi/contracts';

/** Streams of one deployment (NAMESPACE): connector input for the chats store, and domain events. */
export const streamNames = (namespace: string) => ({
  ingest: `${namespace.toUpperCase().replace(/-/g, '_')}_INGEST`,
  events: `${namespace.toUpperCase().replace(/-/g, '_')}_EVENTS`,
});
export const ingestSubject = (namespace: string, kind: string) => `${namespace}.ingest.${kind}`;
/** `<ns>.events.v1.<type>`: the versioned subject of the event's definition (contracts), under the namespace. */
export const eventSubject = (namespace: string, type: string) => `${namespace}.${eventSubjectOf(type)}`;

/** Creates (or updates) the file-backed streams with a 2-minute duplicate window for Nats-Msg-Id. */
export async function ensureStreams(nc: NatsConnection, namespace: string): Promise<void> {
  const jsm = await nc.jetstreamManager();
  const names = streamNames(namespace);
  const specs = [
    { name: names.ingest, subjects: [`${namespace}.ingest.>`], max_age: nanos(7 * 24 * 3600 * 1000) },
    { name: names.events, subjects: [`${namespace}.events.>`], max_age: nanos(7 * 24 * 3600 * 1000) },
  ];
  for (const spec of specs) {
    const config = { ...spec, storage: StorageType.File, retention: RetentionPolicy.Limits, duplicate_window: nanos(120_000) };
    try {
      await jsm.streams.info(spec.name);
      await jsm.streams.update(spec.name, config);
    } catch {
      await jsm.streams.add(config);
    }
  }
}

const codec = JSONCodec();

/**
 * Publishes and waits for JetStream's ack: once this resolves the message is stored (deduplicated by
 * msgID). `data` as a string is sent as is (JSON already serialized); anything else is serialized.
 */
export async function publishDurable(js: JetStreamClient, subject: string, data: unknown, msgID: string): Promise<PubAck> {
  return js.publish(subject, typeof data === 'string' ? new TextEncoder().encode(data) : codec.encode(data), { msgID });
}
