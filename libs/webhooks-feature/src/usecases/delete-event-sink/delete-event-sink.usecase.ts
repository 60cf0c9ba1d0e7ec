import { HttpReply, type DeleteEventSinkRequest } from '@mapi/contracts';
import type { SubscriptionRepository } from '../../repositories/subscription-repository';
import { webhookNotFound } from '../get-webhook/get-webhook.usecase';

/** DELETE /event-sinks/{id}: 204; its deliveries and log go with it (foreign keys cascade). */
export class DeleteEventSink {
  constructor(private readonly sinks: SubscriptionRepository) {}

  async execute({ ctx, params }: DeleteEventSinkRequest): Promise<HttpReply<null>> {
    if (!(await this.sinks.delete(ctx.org_id, params.id))) throw webhookNotFound('sinks');
    return new HttpReply(204, null);
  }
}
