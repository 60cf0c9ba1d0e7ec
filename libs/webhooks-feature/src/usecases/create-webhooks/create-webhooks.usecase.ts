import { randomUUID } from 'node:crypto';
import { HttpReply, type CreateWebhooksRequest, type WebhookSubscription } from '@mapi/contracts';
import type { Prisma } from '@mapi/db';
import { generateSecret } from '@mapi/platform';
import { mapSubscription } from '../../subscriptions/map-subscription';
import type { SubscriptionRepository } from '../../repositories/subscription-repository';

/**
 * POST /webhooks: one subscription per event name, all sharing one integration_id; answered 201 with
 * the subscriptions and their signing secrets (each its own), shown only now.
 */
export class CreateWebhooks {
  constructor(private readonly subscriptions: SubscriptionRepository) {}

  async execute({ ctx, body }: CreateWebhooksRequest): Promise<HttpReply<(WebhookSubscription & { secret: string })[]>> {
    const names = [...new Set(Array.isArray(body.integrationName) ? body.integrationName : [body.integrationName])];
    const integrationId = randomUUID();
    const metadata = { ...(body.integrationMetadata ?? {}), id: integrationId, name: body.name ?? body.hookUrl } as Prisma.InputJsonValue;
    const rows = await this.subscriptions.createMany(
      ctx.org_id,
      names.map((name) => ({
        integration_name: name,
        integration_id: integrationId,
        integration_metadata: metadata,
        integration_type: body.integrationType ?? 'webhook',
        type: body.type ?? 'webhook',
        hook_url: body.hookUrl,
        secret: generateSecret(),
      })),
    );
    return new HttpReply(
      201,
      rows.map((r) => ({ ...mapSubscription(r), secret: r.secret })),
    );
  }
}
