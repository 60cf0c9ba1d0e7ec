import type { PrismaClient } from '@mapi/db';
import type { BatchConsumer } from '@mapi/events';
import type { NatsConnection } from 'nats';
import type { Logger } from 'pino';
import { eventDurable } from '../ingest/event-durable';
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
    const c = { nc, namespace, prisma, logger, ackWaitMs: options.ackWaitMs ?? 30_000 };
    const failure = (name: string) => `applying SLA events (${name}) failed; they will be redelivered`;
    this.consumers = [
      eventDurable(c, {
        name: ANALYTICS_SLA_DURABLE,
        filterSubject: `${namespace}.events.v1.message.>`,
        factOf: slaMessageFactOf,
        apply: (tx, facts) => applySlaFacts(tx, facts, { minuteMs: options.minuteMs, lateCutoffMs: options.lateCutoffMs, now: Date.now() }),
        committed: (waits) => {
          if (waits.length) options.onArmed?.(waits);
        },
        failure: failure(ANALYTICS_SLA_DURABLE),
      }),
      eventDurable(c, {
        name: ANALYTICS_SLA_LABELS_DURABLE,
        filterSubject: `${namespace}.events.v1.chat.label.updated`,
        factOf: slaLabelFactOf,
        apply: applyLabelFacts,
        failure: failure(ANALYTICS_SLA_LABELS_DURABLE),
      }),
    ];
  }

  async start(): Promise<void> {
    await Promise.all(this.consumers.map((c) => c.start()));
  }

  async stop(): Promise<void> {
    await Promise.all(this.consumers.map((c) => c.stop()));
  }
}
