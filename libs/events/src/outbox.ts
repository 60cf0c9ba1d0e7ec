import { randomUUID } from 'node:crypto';
import type { EventName } from '@mapi/contracts';
import type { Prisma, PrismaClient } from '@mapi/db';
import type { NatsConnection } from 'nats';
import type { Logger } from 'pino';
import { eventSubject, publishDurable } from './jetstream';

/** A domain event as published: the catalogue name, its organization, the object itself. */
export interface DomainEvent<T = unknown> {
  event_id: string;
  event_type: EventName;
  org_id: string;
  phone_id: string | null;
  created_at: string;
  data: T;
}

type Tx = Prisma.TransactionClient | PrismaClient;

/** Writes events in the caller's transaction, so an event exists exactly when its change does. */
export async function writeEvents(
  tx: Tx,
  events: { type: EventName; org_id: string; phone_id?: string | null; data: unknown }[],
): Promise<void> {
  if (!events.length) return;
  await tx.outboxEvent.createMany({
    data: events.map((e) => ({ id: randomUUID(), org_id: e.org_id, type: e.type, phone_id: e.phone_id ?? null, payload: e.data as Prisma.InputJsonValue })),
  });
}

/**
 * Moves written events to JetStream: takes a batch of unpublished rows (SKIP LOCKED, so several
 * relays share the work), publishes each with Nats-Msg-Id = event id, then marks them published.
 * A crash between publish and mark republishes: duplicates carry the same id and JetStream's
 * duplicate window drops them.
 */
export class OutboxRelay {
  private timer?: NodeJS.Timeout;
  private running = false;
  private busy?: Promise<number>;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly nc: NatsConnection,
    private readonly namespace: string,
    private readonly logger: Logger,
    private readonly intervalMs = 50,
  ) {}

  start(): void {
    this.running = true;
    const tick = async () => {
      if (!this.running) return;
      try {
        this.busy = this.relayOnce();
        const moved = await this.busy;
        this.timer = setTimeout(tick, moved > 0 ? 0 : this.intervalMs);
      } catch (err) {
        this.logger.warn({ err }, 'outbox relay failed; retrying');
        this.timer = setTimeout(tick, 1_000);
      }
    };
    void tick();
  }

  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.timer);
    await this.busy?.catch(() => undefined);
  }

  /** One batch; returns how many events were published. */
  async relayOnce(limit = 500): Promise<number> {
    const js = this.nc.jetstream();
    return this.prisma.$transaction(async (tx) => {
      const rows = await tx.$queryRaw<{ id: string; org_id: string; type: string; phone_id: string | null; payload: unknown; created_at: Date }[]>`
        SELECT id, org_id, type, phone_id, payload, created_at FROM outbox_events
        WHERE published_at IS NULL ORDER BY seq LIMIT ${limit} FOR UPDATE SKIP LOCKED`;
      if (!rows.length) return 0;
      // Published in `seq` order on one connection, so the stream keeps that order; acks awaited together.
      await Promise.all(
        rows.map((r) => {
          const event: DomainEvent = {
            event_id: r.id,
            event_type: r.type as EventName,
            org_id: r.org_id,
            phone_id: r.phone_id,
            created_at: r.created_at.toISOString(),
            data: r.payload,
          };
          return publishDurable(js, eventSubject(this.namespace, r.type), event, r.id);
        }),
      );
      await tx.outboxEvent.updateMany({ where: { id: { in: rows.map((r) => r.id) } }, data: { published_at: new Date() } });
      return rows.length;
    });
  }
}
