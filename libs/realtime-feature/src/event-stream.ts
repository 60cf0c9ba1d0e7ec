import { DeliverPolicy, JSONCodec, type ConsumerMessages, type NatsConnection } from 'nats';
import { ResilientConsumer, ensureStreams, streamNames, type DomainEvent } from '@mapi/events';
import type { Logger } from '@mapi/platform';

const codec = JSONCodec<DomainEvent>();

/**
 * This replica's own reading of the domain-event stream: an ordered (ephemeral, unacknowledged)
 * consumer that starts at new events. Every replica reads every event, in stream order, and
 * delivers it only to its own sockets; nothing is shared, so replicas come and go freely. The
 * ordered consumer recreates itself after a NATS reconnect, resuming after the last event seen;
 * when that fails (the stream deleted, NATS restarted on an empty store) the ResilientConsumer
 * (`realtime` on readiness and in the gauge) re-creates the stream and reads on: after the last
 * event seen, or from the start of a stream created anew (every event in it came after the loss).
 */
export class EventStream {
  private readonly runner: ResilientConsumer;
  /** The stream read, by its creation time: another one of the same name is a new stream. */
  private streamCreated?: string;
  private lastSeq = 0;

  constructor(
    private readonly nc: NatsConnection,
    private readonly namespace: string,
    private readonly onEvent: (event: DomainEvent) => void,
    private readonly logger: Logger,
  ) {
    this.runner = new ResilientConsumer({
      name: 'realtime',
      nc,
      open: () => this.open(),
      drain: (messages) => this.drain(messages),
      log: logger,
    });
  }

  start(): Promise<void> {
    return this.runner.start();
  }

  private async open(): Promise<ConsumerMessages> {
    // The chats and phones services create the stream too; creating it here lets the gateway start
    // first, and brings it back when NATS lost it.
    await ensureStreams(this.nc, this.namespace);
    const stream = streamNames(this.namespace).events;
    const jsm = await this.nc.jetstreamManager();
    const info = await jsm.streams.info(stream);
    if (this.streamCreated === undefined)
      this.lastSeq = info.state.last_seq; // first start: new events only
    else if (info.created !== this.streamCreated) this.lastSeq = Math.max(0, info.state.first_seq - 1); // a new stream: all of it
    this.streamCreated = info.created;
    // An explicit start sequence rather than DeliverPolicy.New: the ordered consumer recreates
    // itself (missed heartbeats, reconnect) from its cursor, and with New and no event seen yet
    // that recreation would skip the events published in between.
    const consumer = await this.nc.jetstream().consumers.get(stream, {
      deliver_policy: DeliverPolicy.StartSequence,
      opt_start_seq: this.lastSeq + 1,
      filterSubjects: `${this.namespace}.events.>`,
    });
    // Pulls that expire every 10 s (heartbeats every 5 s): a stream that vanished without notice is seen in ~10 s, not the default 30.
    const messages = await consumer.consume({ max_messages: 1_000, expires: 10_000, abort_on_missing_resource: true });
    void this.watch(messages, stream);
    return messages;
  }

  /**
   * The ordered consumer recreates itself from its cursor; on a stream created anew (another app
   * re-created it first) that cursor is past everything: then the reading is restarted from its start.
   */
  private async watch(messages: ConsumerMessages, stream: string): Promise<void> {
    try {
      for await (const status of await messages.status()) {
        if (status.type !== 'ordered_consumer_recreated' && status.type !== 'heartbeats_missed') continue;
        this.logger.warn({ status: status.type, data: status.data }, 'realtime: event stream consumer recreated');
        const info = await (await this.nc.jetstreamManager()).streams.info(stream).catch(() => null);
        if (info && info.created !== this.streamCreated) await messages.close();
      }
    } catch {
      // the subscription ended: the runner opens another, with its own watch
    }
  }

  private async drain(messages: ConsumerMessages): Promise<void> {
    for await (const m of messages) {
      this.lastSeq = m.seq;
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
  }

  stop(): Promise<void> {
    return this.runner.stop();
  }
}
