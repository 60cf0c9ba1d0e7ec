import { IngestEventSchema, METRICS, metricOptions, type IngestEvent } from '@mapi/contracts';
import { BatchConsumer, ensureStreams, streamNames } from '@mapi/events';
import { DURATION_BUCKETS_S, meter } from '@mapi/platform';
import type { NatsConnection } from 'nats';
import type { Logger } from 'pino';
import type { ApplyIngest } from './apply-ingest.usecase';

/**
 * The chats service's durable JetStream consumer of connector events. Each fetched batch is
 * validated, applied in one transaction, then acknowledged; a crash before the ack redelivers it.
 * An event that fails validation is logged and dropped (it can never succeed).
 */
export function createIngestConsumer(nc: NatsConnection, namespace: string, apply: ApplyIngest, logger: Logger): BatchConsumer<unknown> {
  // mapi.ingest.lag (GET /metrics): from a connector event reaching JetStream to its being applied (readable)
  const lag = meter().createHistogram(METRICS.ingestLag.name, {
    ...metricOptions(METRICS.ingestLag),
    advice: { explicitBucketBoundaries: DURATION_BUCKETS_S },
  });
  return new BatchConsumer<unknown>(
    nc,
    // ack wait 10 s: after a crash, the unacknowledged batch comes back that soon (applying it again is
    // harmless; a long batch sends heartbeats). A batch is up to 200 events or 2,000 messages, whichever
    // comes first: small events (many phones, a few messages each) still make one large statement per
    // table, and a transaction stays well under a second.
    {
      stream: streamNames(namespace).ingest,
      durable: 'chats-ingest',
      batchSize: 200,
      maxWeight: 2_000,
      weigh: messagesIn,
      ackWaitMs: 10_000,
      ensureStream: () => ensureStreams(nc, namespace),
      log: logger,
    },
    async (items) => {
      const events: IngestEvent[] = [];
      for (const item of items) {
        const parsed = IngestEventSchema.safeParse(item.data);
        if (parsed.success) events.push(parsed.data);
        else logger.error({ subject: item.subject, issues: parsed.error.issues.slice(0, 5) }, 'invalid ingest event dropped');
      }
      if (events.length) await apply.execute(events);
      const now = Date.now();
      for (const item of items) lag.record(Math.max(0, (now - item.published_ms) / 1000));
    },
    (err) => logger.warn({ err }, 'ingest batch failed; will be redelivered'),
  );
}

/** A batch's weight: the messages an upsert carries (other events count one). */
function messagesIn(data: unknown): number {
  const messages = (data as { messages?: unknown } | null)?.messages;
  return Array.isArray(messages) ? Math.max(1, messages.length) : 1;
}
