import { Errors, HttpReply, type RedeliverEventRequest } from '@mapi/contracts';
import type { Clock } from '../../delivery/clock';
import type { DeliveryLogRepository } from '../../repositories/delivery-log-repository';
import type { SubscriptionRepository } from '../../repositories/subscription-repository';
import { webhookNotFound } from '../get-webhook/get-webhook.usecase';

/**
 * POST /webhooks/{id}/redeliver and /event-sinks/{id}/redeliver (through the sinks' repository): one kept
 * event sent again now (same event id), its retry schedule restarted.
 */
export class RedeliverEvent {
  constructor(
    private readonly subscriptions: SubscriptionRepository,
    private readonly log: DeliveryLogRepository,
    private readonly clock: Clock,
    private readonly onScheduled: () => void,
  ) {}

  async execute({ ctx, params, body }: RedeliverEventRequest) {
    const scope = this.subscriptions.scope;
    if (!(await this.subscriptions.find(ctx.org_id, params.id))) throw webhookNotFound(scope);
    const count = await this.log.schedule(ctx.org_id, params.id, this.clock.now(), { eventId: body.eventId });
    if (!count) {
      const of = scope === 'sinks' ? 'sink' : 'subscription';
      throw Errors.notFound(`Event not found for this ${of} (unknown, expired, or not of the ${of}'s event name)`);
    }
    this.onScheduled();
    return new HttpReply(202, { subscription_id: params.id, event_id: body.eventId, scheduled: true as const });
  }
}
