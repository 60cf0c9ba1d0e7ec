import { metrics, type ObservableGauge, type ObservableResult } from '@opentelemetry/api';
import { DURATION_BUCKETS_S, METER_NAME, METRICS, metricOptions } from '@mapi/contracts';
import type { PrismaClient } from '@mapi/db';

// The project's meter (the catalogue's name: this data lib may not import libs/platform's meter()).
const meter = () => metrics.getMeter(METER_NAME);

/**
 * The outbox relay's figures (GET /metrics): events published by type, the time from an event's
 * commit to its publication on NATS, and the backlog of committed events not yet published (read
 * from Postgres when scraped, one index probe each; every process with a relay reports the same
 * backlog, so dashboards take the max).
 */
export class OutboxMetrics {
  private readonly published = meter().createCounter(METRICS.outboxEventsPublished.name, metricOptions(METRICS.outboxEventsPublished));
  private readonly lag = meter().createHistogram(METRICS.outboxRelayLag.name, {
    ...metricOptions(METRICS.outboxRelayLag),
    advice: { explicitBucketBoundaries: DURATION_BUCKETS_S },
  });
  private readonly backlog: ObservableGauge = meter().createObservableGauge(
    METRICS.outboxBacklog.name,
    metricOptions(METRICS.outboxBacklog),
  );
  private readonly observe = async (result: ObservableResult) => {
    const [row] = await this.prisma.$queryRaw<{ n: bigint }[]>`
      SELECT GREATEST(0, coalesce((SELECT max(seq) FROM outbox_events), 0) - coalesce((SELECT last_seq FROM outbox_cursor WHERE name = 'relay'), 0)) AS n`;
    result.observe(Number(row?.n ?? 0));
  };

  constructor(private readonly prisma: PrismaClient) {}

  start(): void {
    this.backlog.addCallback(this.observe);
  }

  stop(): void {
    this.backlog.removeCallback(this.observe);
  }

  recordPublished(rows: readonly { type: string; created_at: Date }[], now = Date.now()): void {
    for (const r of rows) {
      this.published.add(1, { event_type: r.type });
      this.lag.record(Math.max(0, (now - r.created_at.getTime()) / 1000));
    }
  }
}
