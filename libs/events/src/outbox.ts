import { randomUUID } from 'node:crypto';
import type { EventInput, EventName, EventPayload } from '@mapi/contracts';
import type { Prisma, PrismaClient } from '@mapi/db';
import { headers as natsHeaders, type NatsConnection } from 'nats';
import type { Logger } from 'pino';
import { eventSubject, streamNames } from './jetstream';
import { OutboxMetrics } from './outbox-metrics';
import { OUTBOX_CHANNEL, OutboxWakeups } from './outbox-wakeups';
import { OutboxReplay } from './replay/outbox-replay';
import { StreamWatch } from './replay/stream-watch';

const encoder = new TextEncoder();

/**
 * The header the relay puts on every event it publishes: the event's outbox `seq` (commit order, the
 * same across a lost and re-created stream). Consumers that keep an order (the webhooks intake's
 * orderByChat, decision 0093) read it; the event's JSON is unchanged.
 */
export const OUTBOX_SEQ_HEADER = 'Mapi-Outbox-Seq';

/**
 * A domain event as published: the catalogue name, its organization, the object itself — of the type
 * the registry (libs/contracts/src/events) gives that name. Narrowing on `event_type` narrows `data`.
 */
export type DomainEvent<N extends EventName = EventName> = {
  [K in N]: {
    event_id: string;
    event_type: K;
    org_id: string;
    phone_id: string | null;
    created_at: string;
    data: EventPayload<K>;
    /** Update events: the changed attributes' values before the change; null (or absent, from older relays) otherwise. */
    previous_attributes?: Partial<EventPayload<K>> | null;
  };
}[N];

type Tx = Prisma.TransactionClient | PrismaClient;

/**
 * The outbox lock (a transaction-level advisory lock, one key for the whole outbox): every writer
 * takes it in the statement that inserts its events and holds it until its transaction ends, so
 * `seq` values become visible in order and the relay can keep a single cursor instead of marking
 * each row. Writers hold it only from their insert to their commit: insert events last.
 */
const OUTBOX_LOCK_KEY = 7_245_110_331;
/** Held by the replica that prunes, so replicas do not queue their deletes behind each other's. */
const PRUNE_LOCK_KEY = 7_245_110_332;

// One statement for any number of events, lock included (a write outside a transaction is its own
// transaction, so it holds the lock until it commits too). The lock is taken before any row is
// produced (the rows are sorted first), so before any seq is drawn. Prisma's createMany compiles a
// plan per call that grows with rows × columns, too costly on the ingestion's hot path.
// The statement also notifies OUTBOX_CHANNEL: Postgres delivers it when the transaction commits (and
// folds repeats within one transaction), which wakes the relays (OutboxWakeups).
const INSERT_EVENTS = `WITH outbox_lock AS (SELECT pg_advisory_xact_lock(${OUTBOX_LOCK_KEY})),
    wake AS (SELECT pg_notify('${OUTBOX_CHANNEL}', ''))
  INSERT INTO outbox_events (id, org_id, type, phone_id, payload, previous_attributes)
  SELECT x.id, x.org_id, x.type, x.phone_id, x.payload, x.previous
  FROM outbox_lock, wake, jsonb_to_recordset($1::jsonb) AS x(n int, id uuid, org_id uuid, type text, phone_id text, payload jsonb, previous jsonb)
  ORDER BY x.n`;

/**
 * Writes events in the caller's transaction, so an event exists exactly when its change does. Call
 * it last in the transaction: it holds the outbox lock until the commit.
 */
export async function writeEvents(tx: Tx, events: readonly EventInput[]): Promise<void> {
  if (!events.length) return;
  await tx.$executeRawUnsafe(INSERT_EVENTS, eventRowsParam(events));
}

/**
 * An event to write: its catalogue name, organization, phone (if any) and object. `data` must be the
 * payload the registry defines for `type` (EventPayload), so a writer cannot send a partial object.
 */
export type { EventInput };

/** The one parameter of INSERT_EVENTS_SQL: the events as rows, numbered in order, each with a new id. */
export function eventRowsParam(events: readonly EventInput[]): string {
  return JSON.stringify(
    events.map((e, n) => ({
      n,
      id: randomUUID(),
      org_id: e.org_id,
      type: e.type,
      phone_id: e.phone_id ?? null,
      payload: e.data ?? null,
      previous: e.previous ?? null,
    })),
  );
}

/**
 * For writers that do not use Prisma (a pg client): the statement writeEvents runs, outbox lock
 * included; its parameter is eventRowsParam(events). Run it last in the transaction.
 */
export const INSERT_EVENTS_SQL = INSERT_EVENTS;

/** Events written and not yet published (seq after the relay's cursor). */
export async function unpublishedEvents(prisma: Tx): Promise<number> {
  const [row] = await prisma.$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM outbox_events WHERE seq > COALESCE((SELECT last_seq FROM outbox_cursor WHERE name = 'relay'), 0)`;
  return row.n;
}

/**
 * Moves written events to JetStream. One relay works at a time (it holds the cursor row; the others
 * skip their turn): it reads the events after the cursor in seq order, publishes each with
 * Nats-Msg-Id = event id, then moves the cursor. A crash between publish and move republishes:
 * duplicates carry the same id and JetStream's duplicate window drops them.
 */
export interface OutboxRelayOptions {
  /** Poll interval while wake-ups are not available (no listenUrl, or its connection is down). Default 50 ms. */
  intervalMs?: number;
  /**
   * Postgres URL for wake-ups (LISTEN): every committed outbox insert, in any process, wakes the relay at
   * once, and the relay then polls only every `safetyPollMs` (for a wake-up lost with its connection).
   * Without it, the relay polls every `intervalMs`.
   */
  listenUrl?: string;
  /** Poll interval while wake-ups work. Default 10 s. */
  safetyPollMs?: number;
  /** Published rows are kept this long (JetStream holds the events themselves for 7 days), then pruned. Default 24 h. */
  keepPublishedMs?: number;
  /** How often a relay prunes. Default 60 s. */
  pruneEveryMs?: number;
  /**
   * How often the events stream is checked for a loss (NATS restarted on an empty store), after which
   * what the consumers had not taken is published again (StreamWatch). Default 2 s; 0: not watched.
   */
  watchMs?: number;
}

export class OutboxRelay {
  private timer?: NodeJS.Timeout;
  private running = false;
  private busy?: Promise<number>;
  private idle = false;
  /** A wake-up came while a round was under way: run another at once (its rows may have missed the round's read). */
  private again = false;
  /** This process committed events since the last round began (kick): the next round skips the probe. */
  private written = false;
  private tick?: () => Promise<void>;
  private readonly wakeups?: OutboxWakeups;
  private readonly intervalMs: number;
  private readonly safetyPollMs: number;
  private readonly keepPublishedMs: number;
  private readonly pruneEveryMs: number;
  private readonly metrics: OutboxMetrics;
  private readonly watch?: StreamWatch;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly nc: NatsConnection,
    private readonly namespace: string,
    private readonly logger: Logger,
    options: OutboxRelayOptions = {},
  ) {
    this.intervalMs = options.intervalMs ?? 50;
    this.safetyPollMs = options.safetyPollMs ?? 10_000;
    this.keepPublishedMs = options.keepPublishedMs ?? 24 * 3600_000;
    this.pruneEveryMs = options.pruneEveryMs ?? 60_000;
    if (options.listenUrl) this.wakeups = new OutboxWakeups(options.listenUrl, () => this.wake(), logger);
    this.metrics = new OutboxMetrics(prisma);
    const watchMs = options.watchMs ?? 2_000;
    if (watchMs > 0) {
      const stream = streamNames(namespace).events;
      const replay = new OutboxReplay(
        prisma,
        () => nc.jetstreamManager(),
        stream,
        () => this.wake(),
      );
      this.watch = new StreamWatch(nc, stream, replay, logger, { intervalMs: watchMs });
    }
  }

  /** Whether wake-ups are working now (the relay then polls only every safetyPollMs). */
  get listening(): boolean {
    return this.wakeups?.listening ?? false;
  }

  async start(): Promise<void> {
    this.running = true;
    let nextPrune = 0;
    const tick = async () => {
      this.idle = false;
      this.again = false;
      if (!this.running) return;
      try {
        if (Date.now() >= nextPrune) {
          nextPrune = Date.now() + this.pruneEveryMs;
          this.busy = this.pruneOnce();
          await this.busy;
        }
        const written = this.written;
        this.written = false;
        this.busy = this.relayOnce(500, !written);
        const moved = await this.busy;
        if (!this.running) return;
        const delay = moved > 0 || this.again ? 0 : this.listening ? this.safetyPollMs : this.intervalMs;
        this.idle = delay > 0;
        this.timer = setTimeout(tick, delay);
      } catch (err) {
        this.logger.warn({ err }, 'outbox relay failed; retrying');
        this.timer = setTimeout(tick, 1_000);
      }
    };
    this.tick = tick;
    this.metrics.start();
    await this.wakeups?.start();
    void tick();
    await this.watch?.start();
  }

  /**
   * Events were committed in this process: relay now rather than at the next poll, and without the
   * probe (there is something after the cursor, unless another relay has taken it meanwhile: then the
   * round's read says so). Going straight to the turn, the writer's relay — whose process has just
   * finished the transaction — usually takes it before the relays the commit's notification woke
   * elsewhere, which probe first. During a round, the round is followed by another at once.
   */
  kick(): void {
    this.written = true;
    this.wake();
  }

  /** Events were committed somewhere (a wake-up): relay now rather than at the next poll, probing first. */
  private wake(): void {
    if (!this.running || !this.tick) return;
    if (!this.idle) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.idle = false;
    this.timer = setTimeout(this.tick, 0);
  }

  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.timer);
    this.metrics.stop();
    await this.watch?.stop();
    await this.wakeups?.stop();
    await this.busy?.catch(() => undefined);
  }

  /**
   * Deletes published rows older than the retention window, oldest first, `limit` per statement
   * (up to 10 statements a round); returns how many.
   */
  async pruneOnce(limit = 10_000): Promise<number> {
    const before = new Date(Date.now() - this.keepPublishedMs);
    let total = 0;
    for (let round = 0; round < 10; round++) {
      // One replica prunes at a time: the others skip the statement instead of queuing behind its row locks.
      const n = await this.prisma.$executeRaw`
        WITH turn AS (SELECT pg_try_advisory_xact_lock(${PRUNE_LOCK_KEY}::bigint) AS mine)
        DELETE FROM outbox_events WHERE (SELECT mine FROM turn) AND seq IN (
          SELECT seq FROM outbox_events WHERE seq <= (SELECT last_seq FROM outbox_cursor WHERE name = 'relay')
          ORDER BY seq LIMIT ${limit}) AND created_at < ${before}`;
      total += n;
      if (n < limit) break;
    }
    return total;
  }

  /**
   * One batch; returns how many events were published (0 also when another relay has the turn).
   * `probe`: first ask, in one statement, whether anything follows the cursor (false when this process
   * has just committed events: then there is).
   */
  async relayOnce(limit = 500, probe = true): Promise<number> {
    // Every relay of every process is woken by every commit (and the writer's own relay also by its
    // kick), so most rounds find nothing, or find the turn taken: one statement says so, instead of an
    // interactive transaction of four. A commit after this read notifies, and its wake-up starts
    // another round (the flag is reset when a round starts, before this read).
    // Written as ORDER BY seq LIMIT 1, the form only the seq index yields: as EXISTS (…) the planner
    // chose a sequential scan (a third of the rows guessed to match), and with nothing pending that read
    // every published row still kept (24 h of them), on every wake-up.
    if (probe) {
      const next = await this.prisma.$queryRaw<{ seq: bigint }[]>`
        SELECT seq FROM outbox_events WHERE seq > COALESCE((SELECT last_seq FROM outbox_cursor WHERE name = 'relay'), 0) ORDER BY seq LIMIT 1`;
      if (!next.length) return 0;
    }
    const js = this.nc.jetstream();
    let published: { type: string; created_at: Date }[] = [];
    const moved = await this.prisma.$transaction(async (tx) => {
      // The turn (the cursor row, locked) and what follows it, in one statement. What it reads is of the
      // statement's snapshot, which may be older than the cursor's latest move (the lock returns the
      // newest row): then it reads less, never an event twice or one skipped (seq order is commit order);
      // what it missed was committed later, and that commit's wake-up comes after this round began.
      // The payload stays JSON text and is spliced into the event as is: parsing it only to serialize it
      // again is the relay's largest avoidable cost. The text is valid JSON (Postgres wrote it from jsonb).
      const read = await tx.$queryRaw<
        ({ last_seq: bigint } & (
          | {
              seq: bigint;
              id: string;
              org_id: string;
              type: string;
              phone_id: string | null;
              payload: string;
              previous: string | null;
              created_at: Date;
            }
          | { seq: null }
        ))[]
      >`
        WITH turn AS (SELECT last_seq FROM outbox_cursor WHERE name = 'relay' FOR UPDATE SKIP LOCKED)
        SELECT turn.last_seq, e.* FROM turn LEFT JOIN LATERAL (
          SELECT seq, id, org_id, type, phone_id, payload::text AS payload, previous_attributes::text AS previous, created_at FROM outbox_events
          WHERE seq > turn.last_seq ORDER BY seq LIMIT ${limit}) e ON true
        ORDER BY e.seq`;
      if (!read.length) {
        // Another relay has the turn, or the row is gone (a wiped table): recreate it from the start.
        await tx.$executeRaw`INSERT INTO outbox_cursor (name, last_seq) VALUES ('relay', 0) ON CONFLICT (name) DO NOTHING`;
        return 0;
      }
      const rows = read.filter((r) => r.seq !== null);
      if (!rows.length) return 0;
      // Published in seq order on one connection, so the stream keeps that order; acks awaited together.
      await Promise.all(
        rows.map((r) => {
          const head = {
            event_id: r.id,
            event_type: r.type as EventName,
            org_id: r.org_id,
            phone_id: r.phone_id,
            created_at: r.created_at.toISOString(),
          };
          const event = `${JSON.stringify(head).slice(0, -1)},"data":${r.payload},"previous_attributes":${r.previous ?? 'null'}}`;
          const h = natsHeaders();
          h.set(OUTBOX_SEQ_HEADER, String(r.seq));
          return js.publish(eventSubject(this.namespace, r.type), encoder.encode(event), { msgID: r.id, headers: h }).then(() => undefined);
        }),
      );
      // The move need not wait for the disk: if a Postgres crash loses it, the events are published again,
      // with the same Nats-Msg-Id (deduplicated by JetStream, and consumers are idempotent by event id).
      await tx.$executeRaw`
        WITH async_commit AS (SELECT set_config('synchronous_commit', 'off', true))
        UPDATE outbox_cursor SET last_seq = ${rows[rows.length - 1].seq}, updated_at = now() FROM async_commit WHERE name = 'relay'`;
      published = rows;
      return rows.length;
    });
    this.metrics.recordPublished(published); // once the cursor's move is committed
    return moved;
  }
}
