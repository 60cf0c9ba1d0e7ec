import type { RotateWebhookSecretRequest } from '@mapi/contracts';
import { generateSecret } from '../../delivery/signing';
import type { SubscriptionRepository } from '../../subscriptions/subscription-repository';
import { webhookNotFound } from '../get-webhook/get-webhook.usecase';

/** POST /webhooks/{id}/secret/rotate: a new secret, shown once; attempts from now on are signed with it. */
export class RotateWebhookSecret {
  constructor(private readonly subscriptions: SubscriptionRepository) {}

  async execute({ ctx, params }: RotateWebhookSecretRequest): Promise<{ id: string; secret: string }> {
    const secret = generateSecret();
    const row = await this.subscriptions.update(ctx.org_id, params.id, { secret });
    if (!row) throw webhookNotFound();
    return { id: row.id, secret };
  }
}
