import { METRICS, metricOptions } from '@mapi/contracts';
import { DURATION_BUCKETS_S, meter } from '@mapi/platform';

/** How an attempt ended, as the deliveries counter labels it. */
export type DeliveryOutcome = 'succeeded' | 'retry' | 'failed' | 'gone' | 'cancelled';

/**
 * The dispatcher's delivery figures (GET /metrics): attempts by outcome, the attempt a delivery
 * settled on, and the time from the event's commit to its successful delivery. Labels carry the
 * outcome only: endpoints and organizations are unbounded.
 */
export class DeliveryMetrics {
  private readonly attempts = meter().createCounter(METRICS.webhookDeliveryAttempts.name, metricOptions(METRICS.webhookDeliveryAttempts));
  private readonly settledAfter = meter().createHistogram(METRICS.webhookDeliverySettledAttempts.name, {
    ...metricOptions(METRICS.webhookDeliverySettledAttempts),
    advice: { explicitBucketBoundaries: [1, 2, 3, 4, 5, 6, 8, 10, 15, 20] },
  });
  private readonly latency = meter().createHistogram(METRICS.webhookDeliveryLatency.name, {
    ...metricOptions(METRICS.webhookDeliveryLatency),
    advice: { explicitBucketBoundaries: DURATION_BUCKETS_S },
  });

  record(outcome: DeliveryOutcome, attempt: number, eventCreatedAt: Date | undefined, now: Date): void {
    this.attempts.add(1, { outcome });
    if (outcome === 'retry' || outcome === 'cancelled') return;
    this.settledAfter.record(attempt, { outcome });
    if (outcome === 'succeeded' && eventCreatedAt) this.latency.record(Math.max(0, (now.getTime() - eventCreatedAt.getTime()) / 1000));
  }
}
