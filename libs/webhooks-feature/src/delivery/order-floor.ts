import { OUTBOX_SEQ_HEADER } from '@mapi/events';
import type { NatsConnection } from 'nats';
import type { Logger } from 'pino';

/** Where the floor is raised: DeliveryStore.raiseOrderFloor. */
export interface OrderFloorStore {
  raiseOrderFloor(outboxSeq: bigint): Promise<boolean>;
}

export interface OrderFloorOptions {
  /** Reads while nothing is waiting (a dispatcher killed between its ack and its read). Default 2 s. */
  idleMs?: number;
  /** First and longest wait between reads while a batch's events are not yet under the floor. Default 10 ms, 500 ms. */
  firstRetryMs?: number;
  maxRetryMs?: number;
}

/**
 * Raises webhook_order_floor (decision 0087): the outbox seq through which every event has been
 * scheduled, so ordered deliveries (orderByChat) above it wait for the earlier events of their chat.
 *
 * The intake acks a batch only once it is scheduled, so JetStream's ack floor of the durable
 * consumer (`ack_floor.stream_seq`: every message at or below it acked) is a stream sequence through
 * which everything is scheduled; the relay publishes in outbox order, so the outbox seq the message
 * there carries (its Mapi-Outbox-Seq header) bounds the events scheduled. A batch JetStream still holds
 * (a dispatcher killed before its ack: redelivered after the ack wait; a failed batch nak'ed; a slower
 * replica's) holds the floor below it, and so every ordered delivery after it, until it is scheduled.
 *
 * Read after every batch that scheduled ordered deliveries, again with back-off until the floor covers
 * the batch (its acks reach the server after the batch ends), and every `idleMs` otherwise.
 */
export class OrderFloor {
  /** The highest outbox seq of a batch with ordered deliveries, and the floor as last read. */
  private target = 0n;
  private known = 0n;
  private running = false;
  private timer?: NodeJS.Timeout;
  private round$?: Promise<void>;
  private retryMs: number;
  private readonly idleMs: number;
  private readonly firstRetryMs: number;
  private readonly maxRetryMs: number;

  constructor(
    private readonly nc: NatsConnection,
    private readonly stream: string,
    private readonly durable: string,
    private readonly store: OrderFloorStore,
    /** The floor moved: ordered deliveries may be due now. */
    private readonly onRaised: () => void,
    private readonly logger: Logger,
    options: OrderFloorOptions = {},
  ) {
    this.idleMs = options.idleMs ?? 2_000;
    this.firstRetryMs = options.firstRetryMs ?? 10;
    this.maxRetryMs = options.maxRetryMs ?? 500;
    this.retryMs = this.firstRetryMs;
  }

  start(): void {
    this.running = true;
    this.schedule(0);
  }

  /** A batch with ordered deliveries of events up to outbox seq `seq` was scheduled (and is being acked). */
  cover(seq: bigint): void {
    if (seq <= this.target) return;
    this.target = seq;
    this.retryMs = this.firstRetryMs;
    // After the ack (sent when the batch's handler has returned); a read under way reschedules itself.
    if (this.running && !this.round$) this.schedule(0);
  }

  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.timer);
    await this.round$;
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.run(), ms);
  }

  private async run(): Promise<void> {
    if (!this.running || this.round$) return;
    this.round$ = this.read();
    await this.round$;
    this.round$ = undefined;
    if (!this.running) return;
    if (this.target > this.known) {
      this.schedule(this.retryMs);
      this.retryMs = Math.min(this.retryMs * 2, this.maxRetryMs);
    } else {
      this.retryMs = this.firstRetryMs;
      this.schedule(this.idleMs);
    }
  }

  private async read(): Promise<void> {
    try {
      const jsm = await this.nc.jetstreamManager();
      const consumer = await jsm.consumers.info(this.stream, this.durable);
      const at = consumer.ack_floor.stream_seq;
      if (!at) return;
      const seq = (await jsm.streams.getMessage(this.stream, { seq: at })).header?.get(OUTBOX_SEQ_HEADER);
      // an event from a relay without the header (an older release): no floor to read there yet
      if (!seq || !/^\d+$/.test(seq)) return;
      const floor = BigInt(seq);
      if (floor <= this.known) return;
      const raised = await this.store.raiseOrderFloor(floor);
      this.known = floor;
      if (raised) this.onRaised();
    } catch (err) {
      this.logger.warn({ err }, 'reading the order floor failed; ordered deliveries wait for the next read');
    }
  }
}
