import type { EventSink, GetEventSinkRequest } from '@mapi/contracts';
import type { SubscriptionRepository } from '../../repositories/subscription-repository';
import { mapSink } from '../../subscriptions/map-subscription';
import { webhookNotFound } from '../get-webhook/get-webhook.usecase';

/** GET /event-sinks/{id}: another organization's sink, or a webhook's id, is a 404. */
export class GetEventSink {
  constructor(private readonly sinks: SubscriptionRepository) {}

  async execute({ ctx, params }: GetEventSinkRequest): Promise<EventSink> {
    const row = await this.sinks.find(ctx.org_id, params.id);
    if (!row) throw webhookNotFound('sinks');
    return mapSink(row);
  }
}
