import { HttpReply, type ReplayEventsRequest } from '@mapi/contracts';
import type { Clock } from '../../delivery/clock';
import type { DeliveryLogRepository } from '../../repositories/delivery-log-repository';
import type { SubscriptionRepository } from '../../repositories/subscription-repository';
import { webhookNotFound } from '../get-webhook/get-webhook.usecase';

/** POST /webhooks/{id}/replay: every kept event of the subscription's name created in [from, to), sent again. */
export class ReplayEvents {
  constructor(
    private readonly subscriptions: SubscriptionRepository,
    private readonly log: DeliveryLogRepository,
    private readonly clock: Clock,
    private readonly onScheduled: () => void,
  ) {}

  async execute({ ctx, params, body }: ReplayEventsRequest) {
    if (!(await this.subscriptions.find(ctx.org_id, params.id))) throw webhookNotFound(this.subscriptions.scope);
    const scheduled = await this.log.schedule(ctx.org_id, params.id, this.clock.now(), {
      from: new Date(body.from),
      to: new Date(body.to),
    });
    if (scheduled) this.onScheduled();
    return new HttpReply(202, { subscription_id: params.id, scheduled });
  }
}
