import type { ConsumerMessages, NatsConnection, Status } from 'nats';
import { trackConsumer, type ConsumerState, type ConsumerStatus } from './consumer-states';

/** The logging a consumer needs (a pino logger fits). */
export interface ConsumerLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface ResilientConsumerOptions {
  /** Its name on readiness, in the gauge and in logs (the durable's name, or the reader's). */
  name: string;
  nc: NatsConnection;
  /**
   * Makes sure of what the subscription needs (the stream, the durable consumer: re-created when
   * they vanished, e.g. a nats-server restarted on an empty store) and opens it. Run at each (re)start.
   */
  open: () => Promise<ConsumerMessages>;
  /** Takes the messages until the subscription ends (an error, or the iterator closing). */
  drain: (messages: ConsumerMessages) => Promise<void>;
  log: ConsumerLog;
  /** First and longest wait between restarts (doubling, with jitter); default 200 ms and 2 s. */
  backoffMs?: { first: number; max: number };
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Runs a JetStream subscription for good: when opening it or iterating it fails — the consumer or
 * the stream deleted (open re-creates them), the iterator ending — it is opened again after a
 * back-off, until stop(). While it is not consuming (and while NATS is disconnected) its state is
 * `down`: readiness (consumersIndicator) and the `mapi.stream.consumer.up` gauge show it. A failure
 * is logged once when it goes down and once when it comes back, not at every retry.
 */
export class ResilientConsumer {
  private state: ConsumerState = 'starting';
  private lastError?: string;
  private running = false;
  private loop?: Promise<void>;
  private messages?: ConsumerMessages;
  private wake?: () => void;
  private untrack?: () => void;
  private downSince = 0;
  private connection?: AsyncIterable<Status>;

  constructor(private readonly options: ResilientConsumerOptions) {}

  status(): ConsumerStatus {
    return { name: this.options.name, state: this.state, ...(this.state === 'down' && this.lastError ? { error: this.lastError } : {}) };
  }

  /**
   * Opens the subscription; resolves after the first attempt, whether it consumes or failed (then it
   * is `down` and keeps retrying: the process starts unready rather than not at all).
   */
  async start(): Promise<void> {
    this.running = true;
    this.untrack = trackConsumer(this);
    this.connection = this.options.nc.status();
    void this.watchConnection(this.connection);
    let firstOutcome!: () => void;
    const first = new Promise<void>((resolve) => (firstOutcome = resolve));
    this.loop = this.run(firstOutcome);
    await first;
  }

  private async run(firstOutcome: () => void): Promise<void> {
    const { first = 200, max = 2_000 } = this.options.backoffMs ?? {};
    let attempt = 0;
    let upAt = 0;
    while (this.running) {
      try {
        const messages = await this.options.open();
        this.messages = messages;
        if (!this.running) break;
        if (Date.now() - upAt > max) attempt = 0; // it ran a while: the next failure starts the back-off afresh
        upAt = Date.now();
        this.up();
        firstOutcome();
        await this.options.drain(messages);
        if (this.running) throw new Error('the subscription ended');
      } catch (error) {
        if (!this.running) break;
        this.down(error);
        firstOutcome();
        const wait = Math.min(max, first * 2 ** attempt++) * (0.75 + Math.random() / 2);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, wait);
          this.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
    }
    await this.messages?.close().catch(() => undefined);
  }

  private up(): void {
    if (this.state === 'down')
      this.options.log.info({ consumer: this.options.name, down_ms: Date.now() - this.downSince }, 'stream consumer resumed');
    this.state = 'up';
    this.lastError = undefined;
  }

  private down(error: unknown): void {
    const text = errorText(error);
    if (this.state !== 'down') {
      this.downSince = Date.now();
      this.options.log.warn({ consumer: this.options.name, err: text }, 'stream consumer down; restarting it');
    } else if (text !== this.lastError) {
      this.options.log.warn({ consumer: this.options.name, err: text }, 'stream consumer still down');
    }
    this.state = 'down';
    this.lastError = text;
  }

  /** NATS disconnected: nothing is consumed, whatever the subscription says; back when it reconnects (the subscription re-pulls itself, or fails and is restarted). */
  private async watchConnection(statuses: AsyncIterable<Status>): Promise<void> {
    for await (const s of statuses) {
      if (!this.running) break;
      if (s.type === 'disconnect' && this.state === 'up') this.down(new Error('disconnected from NATS'));
      else if (s.type === 'reconnect' && this.state === 'down' && this.lastError === 'disconnected from NATS') this.up();
    }
  }

  /** Stops consuming: the subscription closes and its drain finishes what it holds (e.g. the batch under way is acked). */
  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    (this.connection as { stop?: () => void } | undefined)?.stop?.(); // ends watchConnection's iteration
    await this.messages?.close().catch(() => undefined);
    await this.loop;
    this.untrack?.();
  }
}
