import type { PrismaClient } from '@mapi/db';
import type { StreamReplaySource } from '@mapi/events';
import type { NatsConnection, StreamInfo } from 'nats';
import type { Logger } from 'pino';

type Entry = { msg_id: string; subject: string; body: string; created: string; seq: number; acked_at: string };

export interface IngestLogOptions {
  /** How long a published event waits to be written with others. Default 50 ms. */
  flushMs?: number;
  /** Events kept in memory while Postgres is away; beyond, the oldest are dropped (and said). Default 100,000. */
  maxPending?: number;
}

const encoder = new TextEncoder();
/** A row published this close to a reading of the stream may belong to a stream created after it: kept one more round. */
const CLOCK_MARGIN_MS = 1_000;

/**
 * What this service published to the ingest stream, kept in Postgres until the chats consumer has
 * acknowledged it (docs/decisions/0079). A StreamWatch on the ingest stream prunes it as the
 * consumer's ack floor moves and, when the stream is lost (nats-server restarted on an empty
 * store), publishes every row again in order with its Nats-Msg-Id; chats applies an event once.
 *
 * Rows are written after JetStream's ack, in batches, so ingestion does not wait for Postgres and
 * goes on while it is away (rows wait in memory). Lost only when two faults meet: this process dies
 * within a batch's wait and the stream is lost before chats took those events.
 */
export class IngestLog implements StreamReplaySource {
  private pending: Entry[] = [];
  private timer?: NodeJS.Timeout;
  private writing?: Promise<void>;
  private failing = false;
  private dropped = 0;
  /** The stream's creation time as last read; rows are labelled with it. */
  private created = '';
  private readonly flushMs: number;
  private readonly maxPending: number;
  /** When rows were last written, and what the last delete covered: at rest a reading finds nothing new to delete. */
  private lastWriteAt = 0;
  private lastDelete?: { floor: number; created: string; before: number };

  constructor(
    private readonly prisma: PrismaClient,
    private readonly nc: NatsConnection,
    private readonly logger: Logger,
    options: IngestLogOptions = {},
  ) {
    this.flushMs = options.flushMs ?? 50;
    this.maxPending = options.maxPending ?? 100_000;
  }

  /** An event JetStream has stored at `seq`: kept until the consumer has taken it. */
  record(msgId: string, subject: string, body: string, seq: number): void {
    this.pending.push({ msg_id: msgId, subject, body, created: this.created, seq, acked_at: new Date().toISOString() });
    if (this.pending.length > this.maxPending) {
      const over = this.pending.length - this.maxPending;
      this.pending.splice(0, over);
      if (this.dropped === 0)
        this.logger.error(
          { kept: this.maxPending },
          'ingest log: Postgres away too long; the oldest published events are no longer kept for a replay',
        );
      this.dropped += over;
    }
    this.schedule(this.flushMs);
  }

  /** Writes what waits in memory (the write under way first); rejects when Postgres refuses (rows kept). */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    while (this.writing) await this.writing.catch(() => undefined);
    if (!this.pending.length) return;
    const rows = this.pending;
    this.pending = [];
    this.writing = this.insert(rows);
    try {
      await this.writing;
      this.lastWriteAt = Date.now();
      if (this.failing) this.logger.info({ dropped: this.dropped }, 'ingest log: writing again');
      this.failing = false;
      this.dropped = 0;
    } catch (err) {
      this.pending = rows.concat(this.pending);
      if (!this.failing) this.logger.warn({ err: (err as Error).message }, 'ingest log: cannot write; kept in memory, retrying');
      this.failing = true;
      this.schedule(1_000);
      throw err;
    } finally {
      this.writing = undefined;
    }
  }

  async consumed(floor: number, info: StreamInfo, readAt: Date): Promise<void> {
    this.created = info.created;
    await this.flush();
    const before = new Date(readAt.getTime() - CLOCK_MARGIN_MS);
    // The floor has not moved and every row was written before the last delete's cut: nothing more to delete.
    const last = this.lastDelete;
    if (last && last.floor === floor && last.created === info.created && this.lastWriteAt < last.before) return;
    // Rows of an unknown stream ('': published before the first reading) are taken as of this one.
    await this.prisma.$executeRaw`
      DELETE FROM ingest_log WHERE (stream_created = ${info.created} OR stream_created = '') AND stream_seq <= ${floor} AND acked_at < ${before}`;
    this.lastDelete = { floor, created: info.created, before: before.getTime() };
  }

  async replay(info: StreamInfo): Promise<number> {
    this.created = info.created;
    await this.flush();
    const js = this.nc.jetstream();
    let total = 0;
    let after = 0n;
    for (;;) {
      const rows = await this.prisma.$queryRaw<{ id: bigint; msg_id: string; subject: string; body: string }[]>`
        SELECT id, msg_id, subject, body FROM ingest_log WHERE id > ${after} ORDER BY id LIMIT 500`;
      if (!rows.length) return total;
      // Published in order on one connection, acks awaited together (the outbox relay's way).
      const acks = await Promise.all(rows.map((r) => js.publish(r.subject, encoder.encode(r.body), { msgID: r.msg_id })));
      const moved = JSON.stringify(rows.map((r, i) => ({ id: String(r.id), seq: acks[i].seq })));
      await this.prisma.$executeRaw`
        UPDATE ingest_log l SET stream_created = ${info.created}, stream_seq = x.seq
        FROM jsonb_to_recordset(${moved}::jsonb) AS x(id bigint, seq bigint) WHERE l.id = x.id`;
      total += rows.length;
      after = rows[rows.length - 1].id;
    }
  }

  /** Stops the batch timer and writes what waits (best effort: a Postgres that is away keeps them unwritten). */
  async stop(): Promise<void> {
    await this.flush().catch(() => undefined);
    clearTimeout(this.timer);
  }

  private schedule(ms: number): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush().catch(() => undefined);
    }, ms);
  }

  private async insert(rows: Entry[]): Promise<void> {
    await this.prisma.$executeRaw`
      INSERT INTO ingest_log (msg_id, subject, body, stream_created, stream_seq, acked_at)
      SELECT x.msg_id, x.subject, x.body, x.created, x.seq, x.acked_at
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(msg_id text, subject text, body text, created text, seq bigint, acked_at timestamptz)`;
  }
}
