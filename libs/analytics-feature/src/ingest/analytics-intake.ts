import type { PrismaClient } from '@mapi/db';
import type { BatchConsumer } from '@mapi/events';
import type { NatsConnection } from 'nats';
import type { Logger } from 'pino';
import { applyFacts } from './apply-facts';
import { eventDurable } from './event-durable';
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
    const c = { nc, namespace, prisma, logger, ackWaitMs };
    this.consumer = eventDurable<MessageFact, unknown>(c, {
      name: ANALYTICS_DURABLE,
      filterSubject: analyticsFilterSubject(namespace),
      factOf,
      apply: applyFacts,
      failure: 'counting message events failed; they will be redelivered',
    });
    this.tickets = eventDurable<TicketFact, unknown>(c, {
      name: ANALYTICS_TICKETS_DURABLE,
      filterSubject: analyticsTicketsFilterSubject(namespace),
      factOf: ticketFactOf,
      apply: applyTicketFacts,
      failure: 'keeping ticket events failed; they will be redelivered',
    });
  }

  async start(): Promise<void> {
    await Promise.all([this.consumer.start(), this.tickets.start()]);
  }

  async stop(): Promise<void> {
    await Promise.all([this.consumer.stop(), this.tickets.stop()]);
  }
}
