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
  /** A second bound on a batch: the sum of its items' weights (e.g. messages carried), default unbounded. */
  maxWeight?: number;
  weigh?: (data: unknown) => number;
}

type Item<T> = { msg: JsMsg; data: T };

/**
 * A durable pull consumer processed in micro-batches: messages are taken as they arrive and handed
 * to `handle` once `batchSize` (or `maxWeight`) have gathered or, when no batch is under way,
 * `lingerMs` after the first (so a lone message waits milliseconds, not a fetch's expiry). They are acknowledged only after `handle`
 * resolves, so a crash redelivers them (handlers are idempotent); a batch that fails is nak'ed with a
 * delay and retried. Batches are applied one at a time; while one is applied the next gathers, and
 * no more is taken until it can start (backpressure: nothing waits unheard-of long enough for
 * JetStream to redeliver it).
 */
export class BatchConsumer<T> {
  private running = false;
  private loop?: Promise<void>;
  private messages?: ConsumerMessages;

  constructor(
    private readonly nc: NatsConnection,
    private readonly options: BatchConsumerOptions,
    /** `published_ms`: when JetStream stored the message (epoch ms), for lag figures. */
    private readonly handle: (items: { data: T; subject: string; published_ms: number }[]) => Promise<void>,
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
    this.running = true;
    this.loop = (async () => {
      while (this.running) {
        try {
          this.messages = await consumer.consume({ max_messages: (this.options.batchSize ?? 500) * 2 });
          await this.drain(this.messages);
        } catch (error) {
          if (this.running) {
            this.onError(error);
            await new Promise((r) => setTimeout(r, 500));
          }
        }
      }
    })();
  }

  private async drain(messages: ConsumerMessages): Promise<void> {
    const { batchSize = 500, lingerMs = 5, maxWeight = Infinity, weigh = () => 1 } = this.options;
    let batch: Item<T>[] = [];
    let weight = 0;
    let timer: NodeJS.Timeout | undefined;
    let chain = Promise.resolve();
    const started: Promise<void>[] = []; // batches handed on and not finished, oldest first
    const flush = () => {
      clearTimeout(timer);
      timer = undefined;
      const items = batch;
      batch = [];
      weight = 0;
      if (!items.length) return;
      const done = (chain = chain.then(() => this.process(items)));
      started.push(done);
      void done.then(() => {
        started.splice(started.indexOf(done), 1);
        if (!started.length && batch.length) flush(); // what gathered meanwhile goes at once, as one batch
      });
    };
    // The linger only applies when nothing is being applied: while a batch is under way the next one
    // keeps gathering (until it is full) and starts when that one ends. Flushing on the linger instead
    // queued a sliver of a batch behind the running one and paid a whole transaction for it.
    const linger = () => {
      timer = undefined;
      if (!started.length) flush();
    };
    for await (const msg of messages) {
      let data: T;
      try {
        data = codec.decode(msg.data) as T;
      } catch (error) {
        this.onError(error); // not JSON: it can never succeed, so it is not redelivered
        msg.term();
        continue;
      }
      const w = weigh(data);
      if (batch.length && weight + w > maxWeight) flush();
      batch.push({ msg, data });
      weight += w;
      if (batch.length >= batchSize || weight >= maxWeight) flush();
      else if (!timer && !started.length) timer = setTimeout(linger, lingerMs);
      while (started.length >= 2) await started[0]; // one applied, one waiting: take no more until it starts
    }
    flush();
    await chain;
  }

  private async process(items: Item<T>[]): Promise<void> {
    // A long batch tells JetStream it is still being worked on, so it is not redelivered meanwhile.
    const heartbeat = setInterval(() => items.forEach((i) => i.msg.working()), Math.max(1_000, (this.options.ackWaitMs ?? 30_000) / 3));
    try {
      await this.handle(items.map((i) => ({ data: i.data, subject: i.msg.subject, published_ms: i.msg.info.timestampNanos / 1e6 })));
      for (const i of items) i.msg.ack();
    } catch (error) {
      this.onError(error);
      for (const i of items) i.msg.nak(1_000);
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
