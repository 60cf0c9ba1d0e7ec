import { AckPolicy, DeliverPolicy, JSONCodec, nanos, type ConsumerMessages, type JsMsg, type MsgHdrs, type NatsConnection } from 'nats';
import { ResilientConsumer, type ConsumerLog } from './resilient-consumer';
import type { ConsumerStatus } from './consumer-states';

const codec = JSONCodec();

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
  /** Creates (or updates) the stream: run before each (re)start, so a stream lost with NATS's store comes back. */
  ensureStream?: () => Promise<void>;
  /** Where going down and resuming are logged; without it, going down is reported to onError. */
  log?: ConsumerLog;
  /** Waits between restarts (ResilientConsumer's default without). */
  backoffMs?: { first: number; max: number };
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
 *
 * It runs in a ResilientConsumer: when the subscription fails (the durable or the stream deleted,
 * NATS restarted on an empty store) the batch under way finishes, and the stream and the durable are
 * created again and consumed after a back-off. A re-created durable delivers the stream from its
 * start (DeliverPolicy.All): what was not acked is not lost, and what was is applied again, harmlessly.
 */
export class BatchConsumer<T> {
  private readonly runner: ResilientConsumer;

  constructor(
    private readonly nc: NatsConnection,
    private readonly options: BatchConsumerOptions,
    /** `published_ms`: when JetStream stored the message (epoch ms), for lag figures; `headers`: the message's, if any. */
    private readonly handle: (items: { data: T; subject: string; published_ms: number; headers?: MsgHdrs }[]) => Promise<void>,
    private readonly onError: (error: unknown) => void,
  ) {
    this.runner = new ResilientConsumer({
      name: options.durable,
      nc,
      open: () => this.open(),
      drain: (messages) => this.drain(messages),
      log: options.log ?? { info: () => undefined, warn: (obj) => onError((obj as { err?: unknown }).err) },
      backoffMs: options.backoffMs,
    });
  }

  /** Consumes from now on; resolves after the first attempt (a failed one is retried, the consumer shows `down` meanwhile). */
  start(): Promise<void> {
    return this.runner.start();
  }

  status(): ConsumerStatus {
    return this.runner.status();
  }

  private async open(): Promise<ConsumerMessages> {
    await this.options.ensureStream?.();
    const jsm = await this.nc.jetstreamManager();
    const settings = {
      ack_wait: nanos(this.options.ackWaitMs ?? 30_000),
      max_ack_pending: 20_000,
      ...(this.options.filterSubject ? { filter_subject: this.options.filterSubject } : {}),
    };
    try {
      await jsm.consumers.add(this.options.stream, {
        durable_name: this.options.durable,
        ack_policy: AckPolicy.Explicit,
        deliver_policy: DeliverPolicy.All,
        ...settings,
      });
    } catch {
      await jsm.consumers.update(this.options.stream, this.options.durable, settings); // exists: bring its settings up to date
    }
    const consumer = await this.nc.jetstream().consumers.get(this.options.stream, this.options.durable);
    // abort_on_missing_resource: a vanished durable or stream ends the iteration (and the runner
    // re-creates them) instead of the client re-pulling from nothing for good.
    return consumer.consume({ max_messages: (this.options.batchSize ?? 500) * 2, abort_on_missing_resource: true });
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
    try {
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
    } finally {
      // Stopped or failed: what was taken is applied (and acked if it still can be) before the
      // subscription is opened again, so batches never overlap.
      flush();
      await chain;
    }
  }

  private async process(items: Item<T>[]): Promise<void> {
    // A long batch tells JetStream it is still being worked on, so it is not redelivered meanwhile.
    const heartbeat = setInterval(() => items.forEach((i) => i.msg.working()), Math.max(1_000, (this.options.ackWaitMs ?? 30_000) / 3));
    try {
      await this.handle(
        items.map((i) => ({ data: i.data, subject: i.msg.subject, published_ms: i.msg.info.timestampNanos / 1e6, headers: i.msg.headers })),
      );
      for (const i of items) i.msg.ack();
    } catch (error) {
      this.onError(error);
      for (const i of items) i.msg.nak(1_000);
    } finally {
      clearInterval(heartbeat);
    }
  }

  /** Stops taking messages; the batch under way finishes (and is acked) first. */
  stop(): Promise<void> {
    return this.runner.stop();
  }
}
