import { HttpReply, type DeleteWebhookRequest } from '@mapi/contracts';
import type { SubscriptionRepository } from '../../repositories/subscription-repository';
import { webhookNotFound } from '../get-webhook/get-webhook.usecase';

/** DELETE /webhooks/{id}: 204; its deliveries and log are removed with it (foreign keys cascade). */
export class DeleteWebhook {
  constructor(private readonly subscriptions: SubscriptionRepository) {}

  async execute({ ctx, params }: DeleteWebhookRequest): Promise<HttpReply<null>> {
    if (!(await this.subscriptions.delete(ctx.org_id, params.id))) throw webhookNotFound();
    return new HttpReply(204, null);
  }
}
