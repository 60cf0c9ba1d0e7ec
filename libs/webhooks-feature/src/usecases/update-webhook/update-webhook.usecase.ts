import type { UpdateWebhookRequest, WebhookSubscription } from '@mapi/contracts';
import type { Prisma } from '@mapi/db';
import { mapSubscription } from '../../subscriptions/map-subscription';
import type { SubscriptionChanges, SubscriptionRepository } from '../../repositories/subscription-repository';
import { webhookNotFound } from '../get-webhook/get-webhook.usecase';

/**
 * PATCH /webhooks/{id}. `isSubscribed: true` (re)activates: the automatic-disable reason and the
 * failure streak are cleared and subscribed_at restarts; false pauses (deliveries due meanwhile are cancelled).
 */
export class UpdateWebhook {
  constructor(private readonly subscriptions: SubscriptionRepository) {}

  async execute({ ctx, params, body }: UpdateWebhookRequest): Promise<WebhookSubscription> {
    const current = await this.subscriptions.find(ctx.org_id, params.id);
    if (!current) throw webhookNotFound();
    const changes: SubscriptionChanges = {};
    if (body.hookUrl !== undefined) changes.hook_url = body.hookUrl;
    if (body.integrationName !== undefined) changes.integration_name = body.integrationName;
    if (body.integrationType !== undefined) changes.integration_type = body.integrationType;
    if (body.type !== undefined) changes.type = body.type;
    if (body.integrationMetadata !== undefined || body.name !== undefined || body.hookUrl !== undefined) {
      const old = (current.integration_metadata ?? {}) as Record<string, unknown>;
      const keptName = old.name !== undefined && old.name !== current.hook_url ? old.name : undefined;
      changes.integration_metadata = {
        ...(body.integrationMetadata ?? old),
        id: current.integration_id,
        name: body.name ?? keptName ?? body.hookUrl ?? current.hook_url,
      } as Prisma.InputJsonValue;
    }
    if (body.isSubscribed !== undefined && body.isSubscribed !== current.is_subscribed) {
      changes.is_subscribed = body.isSubscribed;
      if (body.isSubscribed) Object.assign(changes, { disabled_reason: null, failing_since: null, subscribed_at: new Date() });
      else changes.disabled_reason = 'paused';
    }
    const row = await this.subscriptions.update(ctx.org_id, params.id, changes);
    if (!row) throw webhookNotFound();
    return mapSubscription(row);
  }
}
