import { z } from 'zod';
import { EVENT_NAMES } from '../../events/event-names';

/** A catalogue event name (../shared/reference/wider-api.md); anything else is a 422. */
export const EventNameSchema = z.enum(EVENT_NAMES, { error: `must be one of the event names: ${EVENT_NAMES.join(', ')}` });

/** Where events are POSTed: an absolute http(s) URL (whether its address may be reached is decided at connect time). */
export const HookUrlSchema = z
  .string({ error: 'must be a string' })
  .max(2048, 'must be at most 2048 characters')
  .pipe(z.url({ protocol: /^https?$/, error: 'must be an absolute http or https URL' }));

/** Spec 2.3: a webhook subscription, exactly these fields. */
export const WebhookSubscriptionSchema = z.object({
  id: z.uuid(),
  subscribed_at: z.string(),
  is_subscribed: z.boolean(),
  integration_name: z.string(),
  integration_type: z.string(),
  type: z.string(),
  integration_metadata: z.looseObject({ id: z.string(), name: z.string() }),
  org_id: z.uuid(),
  hook_url: z.string(),
  integration_id: z.uuid(),
});
export type WebhookSubscription = z.infer<typeof WebhookSubscriptionSchema>;

/** Signing secrets: `whsec_` + base64 of 32 random bytes (Standard Webhooks form). */
export const WebhookSecretSchema = z.string().regex(/^whsec_[A-Za-z0-9+/]{32,}={0,2}$/);

/** The answer to a creation: the subscription and, this once, its signing secret. */
export const CreatedWebhookSubscriptionSchema = WebhookSubscriptionSchema.extend({ secret: WebhookSecretSchema });

export const WebhookIdParams = z.object({
  id: z.string().min(1, 'id is required').pipe(z.uuid('id must be a UUID')),
});
