import type { EventSink, ListEventSinksRequest } from '@mapi/contracts';
import type { SubscriptionRepository } from '../../repositories/subscription-repository';
import { mapSink } from '../../subscriptions/map-subscription';

/** GET /event-sinks: the organization's sinks, oldest first (optionally of one transport). */
export class ListEventSinks {
  constructor(private readonly sinks: SubscriptionRepository) {}

  async execute({ ctx, query }: ListEventSinksRequest): Promise<EventSink[]> {
    return (await this.sinks.list(ctx.org_id, query.transport ? { transport: query.transport } : {})).map(mapSink);
  }
}
