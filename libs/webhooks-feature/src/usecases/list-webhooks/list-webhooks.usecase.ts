import type { ListWebhooksRequest, WebhookSubscription } from '@mapi/contracts';
import { mapSubscription } from '../../subscriptions/map-subscription';
import type { SubscriptionRepository } from '../../repositories/subscription-repository';

/** GET /webhooks (spec 4.7): the organization's subscriptions, every given filter applied (AND). */
export class ListWebhooks {
  constructor(private readonly subscriptions: SubscriptionRepository) {}

  async execute({ ctx, query }: ListWebhooksRequest): Promise<WebhookSubscription[]> {
    const filter = Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined));
    return (await this.subscriptions.list(ctx.org_id, filter)).map(mapSubscription);
  }
}
