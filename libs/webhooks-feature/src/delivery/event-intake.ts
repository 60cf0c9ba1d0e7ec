import { streamNames, type DomainEvent } from '@mapi/events';
import { AckPolicy, DeliverPolicy, JSONCodec, nanos, type ConsumerMessages, type JsMsg, type NatsConnection } from 'nats';
import type { Logger } from 'pino';
import type { Clock } from './clock';
import type { DeliveryStore, StoredEvent } from './delivery-store';

export const DISPATCHER_DURABLE = 'webhooks-dispatcher';

const codec = JSONCodec();
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The body that is delivered: the hosted service's envelope — `event`, `data` (the object itself),
 * `org_id`, `previous_attributes` (update events; null otherwise) and `timestamp` — with our own
 * fields beside it (`event_id`, also the webhook-id header; `event_type`, `phone_id`, `created_at`),
 * which break no receiver written for that envelope.
 */
export function toStoredEvent(e: DomainEvent): StoredEvent | null {
  if (!e || typeof e !== 'object' || !UUID.test(String(e.event_id)) || !UUID.test(String(e.org_id)) || typeof e.event_type !== 'string') return null;
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
  return { id: e.event_id, org_id: e.org_id, type: e.event_type, phone_id: e.phone_id ?? null, created_at: created, body };
}

/**
 * Consumes the EVENTS stream with the durable consumer `webhooks-dispatcher`. Messages are gathered
 * for at most `lingerMs` (or `batchSize` of them), scheduled in one statement, and only then acked:
 * a crash before the ack redelivers them, and the unique (subscription, event) key makes that harmless.
 */
export class EventIntake {
  private messages?: ConsumerMessages;
  private loop?: Promise<void>;
  private buffer: JsMsg[] = [];
  private timer?: NodeJS.Timeout;
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly nc: NatsConnection,
    private readonly namespace: string,
    private readonly store: DeliveryStore,
    private readonly clock: Clock,
    private readonly onScheduled: () => void,
    private readonly logger: Logger,
    private readonly options: { batchSize: number; lingerMs: number; ackWaitMs: number } = { batchSize: 500, lingerMs: 10, ackWaitMs: 30_000 },
  ) {}

  async start(): Promise<void> {
    const stream = streamNames(this.namespace).events;
    const jsm = await this.nc.jetstreamManager();
    await jsm.consumers.add(stream, {
      durable_name: DISPATCHER_DURABLE,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      ack_wait: nanos(this.options.ackWaitMs),
      max_ack_pending: 20_000,
    });
    const consumer = await this.nc.jetstream().consumers.get(stream, DISPATCHER_DURABLE);
    const messages = await consumer.consume({ max_messages: this.options.batchSize * 2 });
    this.messages = messages;
    this.loop = (async () => {
      for await (const m of messages) {
        this.buffer.push(m);
        if (this.buffer.length >= this.options.batchSize) await this.flush();
        else this.timer ??= setTimeout(() => void this.flush(), this.options.lingerMs);
      }
    })().catch((err) => this.logger.error({ err }, 'event intake stopped'));
  }

  /** Schedules what was gathered; one flush at a time, in order. */
  private flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.chain = this.chain.then(async () => {
      const msgs = this.buffer;
      this.buffer = [];
      if (!msgs.length) return;
      const events = new Map<string, StoredEvent>();
      for (const m of msgs) {
        let stored: StoredEvent | null = null;
        try {
          stored = toStoredEvent(codec.decode(m.data) as DomainEvent);
        } catch {
          stored = null;
        }
        if (stored) events.set(stored.id, stored);
        else this.logger.warn({ subject: m.subject, seq: m.seq }, 'malformed event skipped');
      }
      try {
        const scheduled = await this.store.scheduleEvents([...events.values()], this.clock.now());
        for (const m of msgs) m.ack();
        if (scheduled > 0) this.onScheduled();
      } catch (err) {
        this.logger.error({ err, count: msgs.length }, 'scheduling events failed; they will be redelivered');
        for (const m of msgs) m.nak(1_000);
      }
    });
    return this.chain;
  }

  async stop(): Promise<void> {
    await this.messages?.close().catch(() => undefined);
    await this.loop;
    await this.flush();
  }
}
