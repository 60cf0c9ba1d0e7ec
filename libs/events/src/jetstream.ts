import {
  AckPolicy,
  DeliverPolicy,
  JSONCodec,
  RetentionPolicy,
  StorageType,
  nanos,
  type ConsumerMessages,
  type JetStreamClient,
  type JsMsg,
  type NatsConnection,
} from 'nats';

/** Streams of one deployment (NAMESPACE): connector input for the chats store, and domain events. */
export const streamNames = (namespace: string) => ({
  ingest: `${namespace.toUpperCase().replace(/-/g, '_')}_INGEST`,
  events: `${namespace.toUpperCase().replace(/-/g, '_')}_EVENTS`,
});
export const ingestSubject = (namespace: string, kind: string) => `${namespace}.ingest.${kind}`;
export const eventSubject = (namespace: string, type: string) => `${namespace}.events.${type}`;

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

/** Publishes and waits for JetStream's ack: once this resolves the message is stored (deduplicated by msgID). */
export async function publishDurable(js: JetStreamClient, subject: string, data: unknown, msgID: string): Promise<void> {
  await js.publish(subject, codec.encode(data), { msgID });
}

export interface BatchConsumerOptions {
  stream: string;
  durable: string;
  filterSubject?: string;
  batchSize?: number;
  /** How long JetStream waits for an ack before redelivering. */
  ackWaitMs?: number;
  /** How long the first message of a batch waits for others (default 5 ms). */
  lingerMs?: number;
}

/**
 * A durable pull consumer processed in micro-batches: messages are taken as they arrive and handed
 * to `handle` once `batchSize` have gathered or `lingerMs` after the first (so a lone message waits
 * milliseconds, not a fetch's expiry). They are acknowledged only after `handle` resolves, so a crash
 * redelivers them (handlers are idempotent); a batch that fails is nak'ed with a delay and retried.
 */
export class BatchConsumer<T> {
  private running = false;
  private loop?: Promise<void>;
  private messages?: ConsumerMessages;

  constructor(
    private readonly nc: NatsConnection,
    private readonly options: BatchConsumerOptions,
    private readonly handle: (items: { data: T; subject: string }[]) => Promise<void>,
    private readonly onError: (error: unknown) => void,
  ) {}

  async start(): Promise<void> {
    const jsm = await this.nc.jetstreamManager();
    const settings = {
      ack_wait: nanos(this.options.ackWaitMs ?? 30_000),
      max_ack_pending: 20_000,
      ...(this.options.filterSubject ? { filter_subject: this.options.filterSubject } : {}),
    };
    try {
      await jsm.consumers.add(this.options.stream, { durable_name: this.options.durable, ack_policy: AckPolicy.Explicit, deliver_policy: DeliverPolicy.All, ...settings });
    } catch {
      await jsm.consumers.update(this.options.stream, this.options.durable, settings); // exists: bring its settings up to date
    }
    const consumer = await this.nc.jetstream().consumers.get(this.options.stream, this.options.durable);
    const batchSize = this.options.batchSize ?? 500;
    const lingerMs = this.options.lingerMs ?? 5;
    this.running = true;
    this.loop = (async () => {
      while (this.running) {
        try {
          this.messages = await consumer.consume({ max_messages: batchSize * 2 });
          let batch: JsMsg[] = [];
          let timer: NodeJS.Timeout | undefined;
          let chain = Promise.resolve();
          const flush = () => {
            clearTimeout(timer);
            timer = undefined;
            const msgs = batch;
            batch = [];
            if (msgs.length) chain = chain.then(() => this.process(msgs));
            return chain;
          };
          for await (const m of this.messages) {
            batch.push(m);
            if (batch.length >= batchSize) await flush();
            else if (!timer) timer = setTimeout(() => void flush(), lingerMs);
          }
          await flush();
        } catch (error) {
          if (this.running) {
            this.onError(error);
            await new Promise((r) => setTimeout(r, 500));
          }
        }
      }
    })();
  }

  private async process(msgs: JsMsg[]): Promise<void> {
    // A long batch tells JetStream it is still being worked on, so it is not redelivered meanwhile.
    const heartbeat = setInterval(() => msgs.forEach((m) => m.working()), Math.max(1_000, (this.options.ackWaitMs ?? 30_000) / 3));
    try {
      await this.handle(msgs.map((m) => ({ data: codec.decode(m.data) as T, subject: m.subject })));
      for (const m of msgs) m.ack();
    } catch (error) {
      this.onError(error);
      for (const m of msgs) m.nak(1_000);
    } finally {
      clearInterval(heartbeat);
    }
  }

  /** Stops taking messages; the batch under way finishes (and is acked) first. */
  async stop(): Promise<void> {
    this.running = false;
    await this.messages?.close();
    await this.loop;
  }
}
