import { DURATION_BUCKETS_S, meter } from '@mapi/platform';

/** How an attempt ended, as the deliveries counter labels it. */
export type DeliveryOutcome = 'succeeded' | 'retry' | 'failed' | 'gone' | 'cancelled';

/**
 * The dispatcher's delivery figures (GET /metrics): attempts by outcome, the attempt a delivery
 * settled on, and the time from the event's commit to its successful delivery. Labels carry the
 * outcome only: endpoints and organizations are unbounded.
 */
export class DeliveryMetrics {
  private readonly attempts = meter().createCounter('mapi.webhook.delivery.attempts', {
    description: 'Webhook delivery attempts by outcome (retry: failed, another attempt is scheduled)',
    unit: '{attempt}',
  });
  private readonly settledAfter = meter().createHistogram('mapi.webhook.delivery.settled_attempts', {
    description: 'Attempts a delivery took until it succeeded or failed for good',
    unit: '{attempt}',
    advice: { explicitBucketBoundaries: [1, 2, 3, 4, 5, 6, 8, 10, 15, 20] },
  });
  private readonly latency = meter().createHistogram('mapi.webhook.delivery.latency', {
    description: 'From the event being committed to the receiver accepting it',
    unit: 's',
    advice: { explicitBucketBoundaries: DURATION_BUCKETS_S },
  });

  record(outcome: DeliveryOutcome, attempt: number, eventCreatedAt: Date | undefined, now: Date): void {
    this.attempts.add(1, { outcome });
    if (outcome === 'retry' || outcome === 'cancelled') return;
    this.settledAfter.record(attempt, { outcome });
    if (outcome === 'succeeded' && eventCreatedAt) this.latency.record(Math.max(0, (now.getTime() - eventCreatedAt.getTime()) / 1000));
  }
}
