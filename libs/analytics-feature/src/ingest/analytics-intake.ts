import type { PrismaClient } from '@mapi/db';
import { BatchConsumer, ensureStreams, streamNames } from '@mapi/events';
import type { NatsConnection } from 'nats';
import type { Logger } from 'pino';
import { applyFacts } from './apply-facts';
import { factOf, type MessageFact } from './message-facts';

export const ANALYTICS_DURABLE = 'analytics';

/** The message events of the EVENTS stream: the only ones the analytics service counts (so far). */
export const analyticsFilterSubject = (namespace: string) => `${namespace}.events.v1.message.>`;

/**
 * The durable JetStream consumer `analytics` of the EVENTS stream (message events only): each batch's
 * facts are counted in one transaction (applyFacts) and acked after it commits; a crash before the
 * ack redelivers them, and the counted-message keys make that count nothing twice.
 */
export class AnalyticsIntake {
  private readonly consumer: BatchConsumer<unknown>;

  constructor(nc: NatsConnection, namespace: string, prisma: PrismaClient, logger: Logger, ackWaitMs = 30_000) {
    this.consumer = new BatchConsumer<unknown>(
      nc,
      {
        stream: streamNames(namespace).events,
        durable: ANALYTICS_DURABLE,
        filterSubject: analyticsFilterSubject(namespace),
        batchSize: 500,
        ackWaitMs,
        ensureStream: () => ensureStreams(nc, namespace),
        log: logger,
      },
      async (items) => {
        const facts = items
          .map((i) => (i.data && typeof i.data === 'object' ? factOf(i.data as Parameters<typeof factOf>[0]) : null))
          .filter((f): f is MessageFact => f !== null);
        if (facts.length) await prisma.$transaction((tx) => applyFacts(tx, facts), { timeout: 60_000, maxWait: 10_000 });
      },
      (err) => logger.error({ err }, 'counting message events failed; they will be redelivered'),
    );
  }

  start(): Promise<void> {
    return this.consumer.start();
  }

  stop(): Promise<void> {
    return this.consumer.stop();
  }
}
