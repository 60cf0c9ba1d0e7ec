import type { Prisma, PrismaClient } from '@mapi/db';
import { BatchConsumer, ensureStreams, streamNames } from '@mapi/events';
import type { NatsConnection } from 'nats';
import type { Logger } from 'pino';
import { applyLabelFacts, applySlaFacts, type SlaApplyOptions } from './apply-sla-facts';
import type { PlannedWait } from './plan-waits';
import { slaLabelFactOf, slaMessageFactOf } from './sla-facts';

/** The SLA timers' durables: message events (replies and incoming messages), and chats' labels. */
export const ANALYTICS_SLA_DURABLE = 'analytics-sla';
export const ANALYTICS_SLA_LABELS_DURABLE = 'analytics-sla-labels';

export interface SlaIntakeOptions extends Omit<SlaApplyOptions, 'now'> {
  ackWaitMs?: number;
  /** Called after a batch armed waits (the local poller plans for the earliest). */
  onArmed?: (waits: PlannedWait[]) => void;
}

/**
 * The durable JetStream consumers `analytics-sla` (`<ns>.events.v1.message.>`, message.created taken)
 * and `analytics-sla-labels` (`<ns>.events.v1.chat.label.updated`) of the EVENTS stream: each batch is
 * applied in one transaction (applySlaFacts / applyLabelFacts) and acked after it commits; a crash
 * before the ack redelivers it, and the waits' keys make that arm or cancel nothing twice.
 */
export class SlaIntake {
  private readonly consumers: BatchConsumer<unknown>[];

  constructor(nc: NatsConnection, namespace: string, prisma: PrismaClient, logger: Logger, options: SlaIntakeOptions) {
    const durable = <F, R>(
      name: string,
      filterSubject: string,
      factOf: (event: never) => F | null,
      apply: (tx: Prisma.TransactionClient, facts: F[]) => Promise<R>,
      committed?: (result: R) => void,
    ) =>
      new BatchConsumer<unknown>(
        nc,
        {
          stream: streamNames(namespace).events,
          durable: name,
          filterSubject,
          batchSize: 500,
          ackWaitMs: options.ackWaitMs ?? 30_000,
          ensureStream: () => ensureStreams(nc, namespace),
          log: logger,
        },
        async (items) => {
          const facts = items.flatMap((i) => {
            const fact = i.data && typeof i.data === 'object' ? factOf(i.data as never) : null;
            return fact === null ? [] : [fact];
          });
          if (!facts.length) return;
          const result = await prisma.$transaction((tx) => apply(tx, facts), { timeout: 60_000, maxWait: 10_000 });
          committed?.(result);
        },
        (err) => logger.error({ err }, `applying SLA events (${name}) failed; they will be redelivered`),
      );
    this.consumers = [
      durable(
        ANALYTICS_SLA_DURABLE,
        `${namespace}.events.v1.message.>`,
        slaMessageFactOf,
        (tx, facts) => applySlaFacts(tx, facts, { minuteMs: options.minuteMs, lateCutoffMs: options.lateCutoffMs, now: Date.now() }),
        (waits) => {
          if (waits.length) options.onArmed?.(waits);
        },
      ),
      durable(ANALYTICS_SLA_LABELS_DURABLE, `${namespace}.events.v1.chat.label.updated`, slaLabelFactOf, applyLabelFacts),
    ];
  }

  async start(): Promise<void> {
    await Promise.all(this.consumers.map((c) => c.start()));
  }

  async stop(): Promise<void> {
    await Promise.all(this.consumers.map((c) => c.stop()));
  }
}
