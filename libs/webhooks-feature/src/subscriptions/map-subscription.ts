import type { EventSink, WebhookAttempt, WebhookSubscription } from '@mapi/contracts';
import type { AttemptRow } from '../rows/attempt-row';
import type { SubscriptionRow } from '../rows/subscription-row';

/** The columns the subscription object is made of (so a query need not read the secrets). */
export const SUBSCRIPTION_COLUMNS = [
  'id',
  'subscribed_at',
  'is_subscribed',
  'integration_name',
  'integration_type',
  'type',
  'integration_metadata',
  'org_id',
  'hook_url',
  'integration_id',
] as const;
export type SubscriptionFields = Pick<SubscriptionRow, (typeof SUBSCRIPTION_COLUMNS)[number]>;

/** 2024-05-01T10:00:00.123+00:00: ISO 8601 with offset (spec 2.3 `subscribed_at`). */
export const isoWithOffset = (d: Date) => `${d.toISOString().slice(0, 23)}+00:00`;

/** A stored subscription as spec 2.3 shows it; the secret never leaves through here. */
export function mapSubscription(row: SubscriptionFields): WebhookSubscription {
  const metadata = (row.integration_metadata ?? {}) as Record<string, unknown>;
  return {
    id: row.id,
    subscribed_at: isoWithOffset(row.subscribed_at),
    is_subscribed: row.is_subscribed,
    integration_name: row.integration_name,
    integration_type: row.integration_type,
    type: row.type,
    integration_metadata: { ...metadata, id: String(metadata.id ?? row.integration_id), name: String(metadata.name ?? row.hook_url) },
    org_id: row.org_id,
    hook_url: row.hook_url,
    integration_id: row.integration_id,
  };
}

/** One attempt of the delivery log as GET /webhooks/{id}/deliveries shows it. */
export function mapAttempt(row: AttemptRow): WebhookAttempt {
  return { ...row, event_type: row.event_type ?? '', attempted_at: isoWithOffset(row.attempted_at) };
}

/** A stored event sink as /v1/event-sinks answers it: never its credentials, only whether it has some. */
export function mapSink(row: SubscriptionRow): EventSink {
  const metadata = (row.integration_metadata ?? {}) as Record<string, unknown>;
  return {
    id: row.id,
    org_id: row.org_id,
    integration_id: row.integration_id,
    name: String(metadata.name ?? row.hook_url),
    event: row.integration_name,
    transport: row.transport as EventSink['transport'],
    url: row.hook_url,
    config: (row.transport_config ?? {}) as Record<string, unknown>,
    has_credentials: row.credentials !== null,
    is_subscribed: row.is_subscribed,
    disabled_reason: row.disabled_reason,
    subscribed_at: isoWithOffset(row.subscribed_at),
  };
}
