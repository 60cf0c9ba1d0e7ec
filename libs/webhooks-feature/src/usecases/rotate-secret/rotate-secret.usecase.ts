import type { RotateWebhookSecretRequest } from '@mapi/contracts';
import type { Clock } from '../../delivery/clock';
import { generateSecret } from '@mapi/platform';
import type { SubscriptionRepository } from '../../repositories/subscription-repository';
import { webhookNotFound } from '../get-webhook/get-webhook.usecase';

/**
 * POST /webhooks/{id}/secret/rotate: a new secret, shown once; attempts from now on are signed with
 * it, and also with the replaced secret for `overlapMs` (a second `v1,` signature), so receivers can
 * switch secrets without rejecting deliveries in between. `overlapMs` 0: no overlap.
 */
export class RotateWebhookSecret {
  constructor(
    private readonly subscriptions: SubscriptionRepository,
    private readonly clock: Clock,
    private readonly overlapMs: number,
  ) {}

  async execute({ ctx, params }: RotateWebhookSecretRequest): Promise<{ id: string; secret: string }> {
    const secret = generateSecret();
    const now = this.clock.now();
    const until = this.overlapMs > 0 ? new Date(now.getTime() + this.overlapMs) : null;
    const row = await this.subscriptions.rotateSecret(ctx.org_id, params.id, secret, until, now);
    if (!row) throw webhookNotFound();
    return { id: row.id, secret };
  }
}
