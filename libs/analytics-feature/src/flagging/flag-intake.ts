import type { PrismaClient } from '@mapi/db';
import type { BatchConsumer } from '@mapi/events';
import type { NatsConnection } from 'nats';
import type { Logger } from 'pino';
import { eventDurable } from '../ingest/event-durable';
import { applyFlagFacts, type FlagApplyOptions } from './apply-flag-facts';
import { flagFactOf } from './flag-facts';

/** The flagging durable: message events (incoming messages, replies, flags set and cleared). */
export const ANALYTICS_FLAGGING_DURABLE = 'analytics-flagging';

export interface FlagIntakeOptions extends Omit<FlagApplyOptions, 'now'> {
  ackWaitMs?: number;
  /** Called after a batch armed jobs, with the earliest due time (the local worker plans for it). */
  onArmed?: (at: number) => void;
}

/**
 * The durable JetStream consumer `analytics-flagging` (`<ns>.events.v1.message.>`) of the EVENTS stream: each
 * batch applied in one transaction (applyFlagFacts) and acked after it commits; a crash before the ack
 * redelivers it, and the jobs' keys make that arm nothing twice.
 */
export class FlagIntake {
  private readonly consumer: BatchConsumer<unknown>;

  constructor(nc: NatsConnection, namespace: string, prisma: PrismaClient, logger: Logger, options: FlagIntakeOptions) {
    this.consumer = eventDurable(
      { nc, namespace, prisma, logger, ackWaitMs: options.ackWaitMs ?? 30_000 },
      {
        name: ANALYTICS_FLAGGING_DURABLE,
        filterSubject: `${namespace}.events.v1.message.>`,
        factOf: flagFactOf,
        apply: (tx, facts) =>
          applyFlagFacts(tx, facts, {
            minuteMs: options.minuteMs,
            lateCutoffMs: options.lateCutoffMs,
            modelOn: options.modelOn,
            now: Date.now(),
          }),
        committed: (at) => {
          if (at !== null) options.onArmed?.(at);
        },
        failure: `applying flagging events (${ANALYTICS_FLAGGING_DURABLE}) failed; they will be redelivered`,
      },
    );
  }

  start(): Promise<void> {
    return this.consumer.start();
  }

  stop(): Promise<void> {
    return this.consumer.stop();
  }
}
