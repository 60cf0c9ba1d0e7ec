import { DeliverPolicy, JSONCodec, type ConsumerMessages, type NatsConnection } from 'nats';
import { ensureStreams, streamNames, type DomainEvent } from '@mapi/events';
import type { Logger } from '@mapi/platform';

const codec = JSONCodec<DomainEvent>();

/**
 * This replica's own reading of the domain-event stream: an ordered (ephemeral, unacknowledged)
 * consumer that starts at new events. Every replica reads every event, in stream order, and
 * delivers it only to its own sockets; nothing is shared, so replicas come and go freely. The
 * ordered consumer recreates itself after a NATS reconnect, resuming after the last event seen.
 */
export class EventStream {
  private messages?: ConsumerMessages;
  private loop?: Promise<void>;
  private stopped = false;

  constructor(
    private readonly nc: NatsConnection,
    private readonly namespace: string,
    private readonly onEvent: (event: DomainEvent) => void,
    private readonly logger: Logger,
  ) {}

  async start(): Promise<void> {
    // The chats and phones services create the stream too; creating it here lets the gateway start first.
    await ensureStreams(this.nc, this.namespace);
    const stream = streamNames(this.namespace).events;
    // An explicit start sequence rather than DeliverPolicy.New: the ordered consumer recreates
    // itself (missed heartbeats, reconnect) from its cursor, and with New and no event seen yet
    // that recreation would skip the events published in between.
    const { state } = await (await this.nc.jetstreamManager()).streams.info(stream);
    const consumer = await this.nc.jetstream().consumers.get(stream, {
      deliver_policy: DeliverPolicy.StartSequence,
      opt_start_seq: state.last_seq + 1,
      filterSubjects: `${this.namespace}.events.>`,
    });
    this.messages = await consumer.consume({ max_messages: 1_000 });
    const messages = this.messages;
    void (async () => {
      for await (const status of await messages.status()) {
        if (status.type === 'ordered_consumer_recreated' || status.type === 'heartbeats_missed') this.logger.warn({ status: status.type, data: status.data }, 'realtime: event stream consumer recreated');
      }
    })().catch(() => undefined);
    this.loop = (async () => {
      for await (const m of messages) {
        let event: DomainEvent;
        try {
          event = codec.decode(m.data);
        } catch (err) {
          this.logger.warn({ err, subject: m.subject }, 'realtime: undecodable event skipped');
          continue;
        }
        if (!event || typeof event.org_id !== 'string' || typeof event.event_type !== 'string') continue;
        try {
          this.onEvent(event);
        } catch (err) {
          this.logger.error({ err, event_id: event.event_id }, 'realtime: delivering an event failed');
        }
      }
    })().catch((err) => {
      if (!this.stopped) this.logger.error({ err }, 'realtime: event stream ended');
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.messages?.close().catch(() => undefined);
    await this.loop;
  }
}
