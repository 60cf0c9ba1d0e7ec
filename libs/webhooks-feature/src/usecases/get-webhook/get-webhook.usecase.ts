import { Errors, type GetWebhookRequest, type WebhookSubscription } from '@mapi/contracts';
import { mapSubscription } from '../../subscriptions/map-subscription';
import type { SubscriptionRepository } from '../../repositories/subscription-repository';

/** The 404 of a subscription route; an event sink route (scope `sinks`) names a sink. */
export const webhookNotFound = (scope: 'webhooks' | 'sinks' = 'webhooks') =>
  Errors.notFound(scope === 'sinks' ? 'Event sink not found' : 'Webhook subscription not found');

/** GET /webhooks/{id}: another organization's id is as unknown as a made-up one (404). */
export class GetWebhook {
  constructor(private readonly subscriptions: SubscriptionRepository) {}

  async execute({ ctx, params }: GetWebhookRequest): Promise<WebhookSubscription> {
    const row = await this.subscriptions.find(ctx.org_id, params.id);
    if (!row) throw webhookNotFound();
    return mapSubscription(row);
  }
}
