import type { PrismaClient } from '@mapi/db';
import type { JetStreamManager, StreamInfo } from 'nats';
import type { StreamReplaySource } from './stream-watch';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The outbox's side of a lost events stream. The relay publishes in outbox order (one cursor), so
 * the stream's order is the outbox's: the consumers' floor, a stream sequence, names an event (its
 * Nats-Msg-Id) whose outbox seq says how far every consumer has got. After a loss the relay's
 * cursor goes back there and the relay publishes the rest again; published rows are kept 24 h, so
 * they are there to publish.
 */
export class OutboxReplay implements StreamReplaySource {
  /** Outbox seq through which every consumer has taken the events (undefined until first read). */
  private floorSeq?: bigint;
  /** The floor last turned into an outbox position (a stream reading at rest repeats it: nothing to look up). */
  private lastFloor?: { floor: number; created: string; first: number };

  constructor(
    private readonly prisma: PrismaClient,
    private readonly jsm: () => Promise<JetStreamManager>,
    private readonly stream: string,
    private readonly wake: () => void,
    /** Without a floor (a loss before the first reading), events written this long before are published again. */
    private readonly fallbackWindowMs = 10 * 60_000,
  ) {}

  async consumed(floor: number, info: StreamInfo): Promise<void> {
    if (info.state.messages === 0) return; // an empty stream names no event: keep the floor read before
    const at = { floor, created: info.created, first: info.state.first_seq };
    const last = this.lastFloor;
    if (last && last.floor === at.floor && last.created === at.created && last.first === at.first && this.floorSeq !== undefined) return;
    // Through `floor` consumed; a floor before the stream's first message means nothing of it is.
    const seq =
      floor >= info.state.first_seq
        ? await this.outboxSeqAt(floor)
        : await this.outboxSeqAt(info.state.first_seq).then((s) => (s === null ? null : s - 1n));
    if (seq !== null) {
      this.floorSeq = seq;
      this.lastFloor = at;
    }
  }

  async replay(): Promise<number> {
    const from = this.floorSeq ?? (await this.fallbackSeq());
    const [row] = await this.prisma.$queryRaw<{ n: number }[]>`
      WITH moved AS (UPDATE outbox_cursor SET last_seq = LEAST(last_seq, ${from}), updated_at = now() WHERE name = 'relay' RETURNING last_seq)
      SELECT count(*)::int AS n FROM outbox_events WHERE seq > (SELECT last_seq FROM moved)`;
    this.wake();
    return row?.n ?? 0;
  }

  private async outboxSeqAt(streamSeq: number): Promise<bigint | null> {
    const msg = await (await this.jsm()).streams.getMessage(this.stream, { seq: streamSeq }).catch(() => null);
    const id = msg?.header?.get('Nats-Msg-Id');
    if (!id || !UUID.test(id)) return null; // not a relay's event
    const [row] = await this.prisma.$queryRaw<{ seq: bigint }[]>`SELECT seq FROM outbox_events WHERE id = ${id}::uuid`;
    return row?.seq ?? null;
  }

  private async fallbackSeq(): Promise<bigint> {
    const [row] = await this.prisma.$queryRaw<{ seq: bigint }[]>`
      SELECT COALESCE(max(seq), 0) AS seq FROM outbox_events WHERE created_at < now() - make_interval(secs => ${this.fallbackWindowMs / 1000})`;
    return row.seq;
  }
}
