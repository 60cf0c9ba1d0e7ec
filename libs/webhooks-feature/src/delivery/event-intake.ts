import { BatchConsumer, OUTBOX_SEQ_HEADER, ensureStreams, streamNames, type DomainEvent } from '@mapi/events';
import type { NatsConnection } from 'nats';
import type { Logger } from 'pino';
import type { Clock } from './clock';
import type { DeliveryStore, StoredEvent } from './delivery-store';
import { OrderFloor, type OrderFloorOptions } from './order-floor';

export const DISPATCHER_DURABLE = 'webhooks-dispatcher';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The body that is delivered: the hosted service's envelope — `event`, `data` (the object itself),
 * `org_id`, `previous_attributes` (update events; null otherwise) and `timestamp` — with our own
 * fields beside it (`event_id`, also the webhook-id header; `event_type`, `phone_id`, `created_at`),
 * which break no receiver written for that envelope.
 */
export function toStoredEvent(e: DomainEvent): StoredEvent | null {
  if (!e || typeof e !== 'object' || !UUID.test(String(e.event_id)) || !UUID.test(String(e.org_id)) || typeof e.event_type !== 'string')
    return null;
  const created = e.created_at && !Number.isNaN(Date.parse(e.created_at)) ? e.created_at : new Date().toISOString();
  const body = JSON.stringify({
    event: e.event_type,
    data: e.data ?? null,
    org_id: e.org_id,
    previous_attributes: e.previous_attributes ?? null,
    timestamp: created,
    event_id: e.event_id,
    event_type: e.event_type,
    phone_id: e.phone_id ?? null,
    created_at: created,
  });
  const chat = (e.data as { chat_id?: unknown } | null)?.chat_id;
  return {
    id: e.event_id,
    org_id: e.org_id,
    type: e.event_type,
    phone_id: e.phone_id ?? null,
    created_at: created,
    body,
    chat_id: typeof chat === 'string' && chat ? chat : null,
  };
}

/**
 * Consumes the EVENTS stream with the durable consumer `webhooks-dispatcher` (a BatchConsumer, so it
 * restarts itself when its subscription fails and shows on readiness while it does). Messages are
 * gathered for at most `lingerMs` (or `batchSize` of them), scheduled in one statement, and only then
 * acked: a crash before the ack redelivers them, and the unique (subscription, event) key makes that harmless.
 * A redelivered batch is scheduled after later events, so deliveries that keep a chat's order carry
 * the event's outbox seq, and wait for the order floor (OrderFloor) to pass it.
 */
export class EventIntake {
  private readonly consumer: BatchConsumer<unknown>;
  private readonly floor: OrderFloor;

  constructor(
    nc: NatsConnection,
    namespace: string,
    store: DeliveryStore,
    clock: Clock,
    onScheduled: () => void,
    logger: Logger,
    options: { batchSize: number; lingerMs: number; ackWaitMs: number; floor?: OrderFloorOptions } = {
      batchSize: 500,
      lingerMs: 10,
      ackWaitMs: 30_000,
    },
  ) {
    const stream = streamNames(namespace).events;
    this.floor = new OrderFloor(nc, stream, DISPATCHER_DURABLE, store, onScheduled, logger, options.floor);
    this.consumer = new BatchConsumer<unknown>(
      nc,
      {
        stream,
        durable: DISPATCHER_DURABLE,
        batchSize: options.batchSize,
        lingerMs: options.lingerMs,
        ackWaitMs: options.ackWaitMs,
        ensureStream: () => ensureStreams(nc, namespace),
        log: logger,
      },
      async (items) => {
        const events = new Map<string, StoredEvent>();
        let last = 0n;
        for (const item of items) {
          const stored = toStoredEvent(item.data as DomainEvent);
          if (!stored) {
            logger.warn({ subject: item.subject }, 'malformed event skipped');
            continue;
          }
          const seq = item.headers?.get(OUTBOX_SEQ_HEADER);
          if (seq && /^\d+$/.test(seq)) {
            stored.seq = seq;
            if (BigInt(seq) > last) last = BigInt(seq);
          }
          events.set(stored.id, stored);
        }
        const { scheduled, ordered } = await store.schedule([...events.values()], clock.now());
        if (scheduled > 0) onScheduled();
        // acked when this returns: the floor is read after that, until it covers this batch
        if (ordered) this.floor.cover(last);
      },
      (err) => logger.error({ err }, 'scheduling events failed; they will be redelivered'),
    );
  }

  async start(): Promise<void> {
    await this.consumer.start();
    this.floor.start();
  }

  /** Stops taking events; what was gathered is scheduled and acked first. */
  async stop(): Promise<void> {
    await this.consumer.stop();
    await this.floor.stop();
  }
}
