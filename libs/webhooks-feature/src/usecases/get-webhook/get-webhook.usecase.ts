import { Errors, type GetWebhookRequest, type WebhookSubscription } from '@mapi/contracts';
import { mapSubscription } from '../../subscriptions/map-subscription';
import type { SubscriptionRepository } from '../../repositories/subscription-repository';

export const webhookNotFound = () => Errors.notFound('Webhook subscription not found');

/** GET /webhooks/{id}: another organization's id is as unknown as a made-up one (404). */
export class GetWebhook {
  constructor(private readonly subscriptions: SubscriptionRepository) {}

  async execute({ ctx, params }: GetWebhookRequest): Promise<WebhookSubscription> {
    const row = await this.subscriptions.find(ctx.org_id, params.id);
    if (!row) throw webhookNotFound();
    return mapSubscription(row);
  }
}
