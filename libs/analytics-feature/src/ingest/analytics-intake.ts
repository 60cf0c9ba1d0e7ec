import type { Prisma, PrismaClient } from '@mapi/db';
import { BatchConsumer, ensureStreams, streamNames } from '@mapi/events';
import type { NatsConnection } from 'nats';
import type { Logger } from 'pino';
import { applyFacts } from './apply-facts';
import { factOf, type MessageFact } from './message-facts';
import { applyTicketFacts, ticketFactOf, type TicketFact } from './ticket-facts';

export const ANALYTICS_DURABLE = 'analytics';
/** The ticket events' durable: its own, so the message consumer's filter (and position) stay as they were. */
export const ANALYTICS_TICKETS_DURABLE = 'analytics-tickets';

/** The message events of the EVENTS stream: the only ones the analytics service counts (so far). */
export const analyticsFilterSubject = (namespace: string) => `${namespace}.events.v1.message.>`;
/** The ticket events (ticket.created, ticket.updated, ticket.deleted: each carries the whole ticket). */
export const analyticsTicketsFilterSubject = (namespace: string) => `${namespace}.events.v1.ticket.>`;

/**
 * The durable JetStream consumer `analytics` of the EVENTS stream (message events only): each batch's
 * facts are counted in one transaction (applyFacts) and acked after it commits; a crash before the
 * ack redelivers them, and the counted-message keys make that count nothing twice. Beside it the
 * durable `analytics-tickets` (ticket events) keeps each ticket's newest state (applyTicketFacts).
 */
export class AnalyticsIntake {
  private readonly consumer: BatchConsumer<unknown>;
  private readonly tickets: BatchConsumer<unknown>;

  constructor(nc: NatsConnection, namespace: string, prisma: PrismaClient, logger: Logger, ackWaitMs = 30_000) {
    /** One durable of the events stream: its events' facts (those of interest), applied in one transaction per batch. */
    const durable = <F>(
      name: string,
      filterSubject: string,
      factOf: (event: never) => F | null,
      apply: (tx: Prisma.TransactionClient, facts: F[]) => Promise<unknown>,
      failure: string,
    ) =>
      new BatchConsumer<unknown>(
        nc,
        {
          stream: streamNames(namespace).events,
          durable: name,
          filterSubject,
          batchSize: 500,
          ackWaitMs,
          ensureStream: () => ensureStreams(nc, namespace),
          log: logger,
        },
        async (items) => {
          const facts = items.flatMap((i) => {
            const fact = i.data && typeof i.data === 'object' ? factOf(i.data as never) : null;
            return fact === null ? [] : [fact];
          });
          if (facts.length) await prisma.$transaction((tx) => apply(tx, facts), { timeout: 60_000, maxWait: 10_000 });
        },
        (err) => logger.error({ err }, failure),
      );
    this.consumer = durable<MessageFact>(
      ANALYTICS_DURABLE,
      analyticsFilterSubject(namespace),
      factOf,
      applyFacts,
      'counting message events failed; they will be redelivered',
    );
    this.tickets = durable<TicketFact>(
      ANALYTICS_TICKETS_DURABLE,
      analyticsTicketsFilterSubject(namespace),
      ticketFactOf,
      applyTicketFacts,
      'keeping ticket events failed; they will be redelivered',
    );
  }

  async start(): Promise<void> {
    await Promise.all([this.consumer.start(), this.tickets.start()]);
  }

  async stop(): Promise<void> {
    await Promise.all([this.consumer.stop(), this.tickets.stop()]);
  }
}
