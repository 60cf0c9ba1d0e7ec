import { IngestEventSchema, type IngestEvent } from '@mapi/contracts';
import { BatchConsumer, streamNames } from '@mapi/events';
import type { NatsConnection } from 'nats';
import type { Logger } from 'pino';
import type { ApplyIngest } from './apply-ingest.usecase';

/**
 * The chats service's durable JetStream consumer of connector events. Each fetched batch is
 * validated, applied in one transaction, then acknowledged; a crash before the ack redelivers it.
 * An event that fails validation is logged and dropped (it can never succeed).
 */
export function createIngestConsumer(nc: NatsConnection, namespace: string, apply: ApplyIngest, logger: Logger): BatchConsumer<unknown> {
  return new BatchConsumer<unknown>(
    nc,
    // ack wait 10 s: after a crash, the unacknowledged batch comes back that soon (applying it again is
    // harmless; a long batch sends heartbeats). 25 events (up to 5,000 messages) keep a transaction short.
    { stream: streamNames(namespace).ingest, durable: 'chats-ingest', batchSize: 25, ackWaitMs: 10_000 },
    async (items) => {
      const events: IngestEvent[] = [];
      for (const item of items) {
        const parsed = IngestEventSchema.safeParse(item.data);
        if (parsed.success) events.push(parsed.data);
        else logger.error({ subject: item.subject, issues: parsed.error.issues.slice(0, 5) }, 'invalid ingest event dropped');
      }
      if (events.length) await apply.execute(events);
    },
    (err) => logger.warn({ err }, 'ingest batch failed; will be redelivered'),
  );
}
