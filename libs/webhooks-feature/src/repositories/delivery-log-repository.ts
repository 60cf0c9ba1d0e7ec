import type { PrismaClient } from '@mapi/db';
import type { AttemptRow } from '../rows/attempt-row';

/** The delivery log and manual (re)scheduling, always within one organization's subscription. */
export class DeliveryLogRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /** The delivery log of one subscription, newest attempt first. */
  attempts(orgId: string, subscriptionId: string, page: { limit: number; offset: number; eventId?: string }): Promise<AttemptRow[]> {
    return this.prisma.$queryRaw<AttemptRow[]>`
      SELECT a.event_id::text, e.type AS event_type, a.attempt, a.attempted_at, a.success, a.status_code, a.latency_ms, a.response_body, a.error
      FROM webhook_attempts a LEFT JOIN webhook_events e ON e.id = a.event_id
      WHERE a.org_id = ${orgId}::uuid AND a.subscription_id = ${subscriptionId}::uuid
        AND (${page.eventId ?? null}::uuid IS NULL OR a.event_id = ${page.eventId ?? null}::uuid)
      ORDER BY a.attempted_at DESC, a.id DESC LIMIT ${page.limit} OFFSET ${page.offset}`;
  }

  /**
   * Schedules the given events (of the organization and the subscription's event name) for the
   * subscription now, restarting the retry schedule of any earlier delivery. Returns how many.
   */
  async schedule(orgId: string, subscriptionId: string, now: Date, which: { eventId: string } | { from: Date; to: Date }): Promise<number> {
    const eventId = 'eventId' in which ? which.eventId : null;
    const from = 'from' in which ? which.from : null;
    const to = 'to' in which ? which.to : null;
    return this.prisma.$executeRaw`
      INSERT INTO webhook_deliveries (subscription_id, event_id, org_id, endpoint, next_attempt_at, created_at, updated_at)
      SELECT s.id, e.id, e.org_id, coalesce(substring(s.hook_url from '^[A-Za-z][A-Za-z0-9+.-]*://[^/?#]+'), s.hook_url), ${now}, ${now}, ${now}
      FROM webhook_subscriptions s JOIN webhook_events e ON e.org_id = s.org_id AND e.type = s.integration_name
      WHERE s.org_id = ${orgId}::uuid AND s.id = ${subscriptionId}::uuid
        AND (${eventId}::uuid IS NULL OR e.id = ${eventId}::uuid)
        AND (${from}::timestamptz IS NULL OR e.created_at >= ${from}::timestamptz)
        AND (${to}::timestamptz IS NULL OR e.created_at < ${to}::timestamptz)
      ON CONFLICT (subscription_id, event_id) DO UPDATE
        SET status = 'pending', attempts = 0, next_attempt_at = EXCLUDED.next_attempt_at, updated_at = EXCLUDED.updated_at,
          -- a replayed delivery is unordered (it would hold its chat's live events back), unless still owed in order
          chat_seq = CASE WHEN webhook_deliveries.next_attempt_at IS NULL THEN NULL ELSE webhook_deliveries.chat_seq END`;
  }
}
