import type { ListWebhookAttemptsRequest, ListWebhookAttemptsResponse } from '@mapi/contracts';
import type { DeliveryLogRepository } from '../../repositories/delivery-log-repository';
import type { SubscriptionRepository } from '../../repositories/subscription-repository';
import { mapAttempt } from '../../subscriptions/map-subscription';
import { webhookNotFound } from '../get-webhook/get-webhook.usecase';

/** GET /webhooks/{id}/deliveries: the delivery log, newest attempt first. */
export class ListWebhookAttempts {
  constructor(
    private readonly subscriptions: SubscriptionRepository,
    private readonly log: DeliveryLogRepository,
  ) {}

  async execute({ ctx, params, query }: ListWebhookAttemptsRequest): Promise<ListWebhookAttemptsResponse> {
    if (!(await this.subscriptions.find(ctx.org_id, params.id))) throw webhookNotFound(this.subscriptions.scope);
    const rows = await this.log.attempts(ctx.org_id, params.id, { limit: query.limit, offset: query.offset, eventId: query.event_id });
    return { count: rows.length, attempts: rows.map(mapAttempt) };
  }
}
