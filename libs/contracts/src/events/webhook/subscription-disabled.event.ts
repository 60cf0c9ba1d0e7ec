import { z } from 'zod';
import { WebhookSubscriptionSchema } from '../../webhooks/subscription/subscription.schema';
import { defineEvent } from '../define-event';

/** The subscription (spec 2.3, now `is_subscribed: false`) and why and when it was disabled. */
export const DisabledWebhookSubscriptionSchema = WebhookSubscriptionSchema.extend({
  /** gone: the endpoint answered 410; failing: no success for WEBHOOK_DISABLE_AFTER_FAILING_MS */
  reason: z.enum(['gone', 'failing']),
  /** ISO 8601: the first failure of the streak (null for a 410 without earlier failures). */
  failing_since: z.string().nullable(),
  /** ISO 8601 */
  disabled_at: z.string(),
});
export type DisabledWebhookSubscription = z.infer<typeof DisabledWebhookSubscriptionSchema>;

export const WebhookSubscriptionDisabledEvent = defineEvent({
  name: 'webhook.subscription.disabled',
  subject: 'events.v1.webhook.subscription.disabled',
  summary: 'The service disabled a subscription on its own: its endpoint answered 410, or failed for too long.',
  data: DisabledWebhookSubscriptionSchema,
});
