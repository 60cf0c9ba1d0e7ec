import type { Prisma, PrismaClient } from '@mapi/db';
import { BatchConsumer, ensureStreams, streamNames } from '@mapi/events';
import type { NatsConnection } from 'nats';
import type { Logger } from 'pino';

/** Where a durable of the EVENTS stream runs: the connection, the namespace, the database and the log. */
export interface EventDurableContext {
  nc: NatsConnection;
  namespace: string;
  prisma: PrismaClient;
  logger: Logger;
  ackWaitMs: number;
}

/** One durable consumer: the events it reads, the fact it takes of each, how a batch of facts is applied. */
export interface EventDurableSpec<F, R> {
  name: string;
  filterSubject: string;
  /** The fact of an event (its `data`), or null when the event says nothing this durable keeps. */
  factOf: (event: never) => F | null;
  apply: (tx: Prisma.TransactionClient, facts: F[]) => Promise<R>;
  /** Called with apply's result once its transaction has committed (before the ack). */
  committed?: (result: R) => void;
  /** The log line when a batch fails (it is then redelivered). */
  failure: string;
}

/**
 * A durable consumer of the EVENTS stream whose batches are applied in one transaction and acked after
 * it commits: a crash before the ack redelivers the batch, and each apply's keys make a repeat count
 * nothing twice. The analytics service's message, ticket and SLA durables are all of this kind.
 */
export function eventDurable<F, R>(c: EventDurableContext, spec: EventDurableSpec<F, R>): BatchConsumer<unknown> {
  return new BatchConsumer<unknown>(
    c.nc,
    {
      stream: streamNames(c.namespace).events,
      durable: spec.name,
      filterSubject: spec.filterSubject,
      batchSize: 500,
      ackWaitMs: c.ackWaitMs,
      ensureStream: () => ensureStreams(c.nc, c.namespace),
      log: c.logger,
    },
    async (items) => {
      const facts = items.flatMap((i) => {
        const fact = i.data && typeof i.data === 'object' ? spec.factOf(i.data as never) : null;
        return fact === null ? [] : [fact];
      });
      if (!facts.length) return;
      const result = await c.prisma.$transaction((tx) => spec.apply(tx, facts), { timeout: 60_000, maxWait: 10_000 });
      spec.committed?.(result);
    },
    (err) => c.logger.error({ err }, spec.failure),
  );
}
