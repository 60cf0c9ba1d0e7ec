import { randomUUID } from 'node:crypto';
import { HttpReply, type CreateEventSinksRequest, type EventSink } from '@mapi/contracts';
import type { Prisma } from '@mapi/db';
import { generateSecret } from '@mapi/platform';
import type { SubscriptionRepository } from '../../repositories/subscription-repository';
import { credentialsAad, type SinkSecrets } from '../../sinks/sink-secrets';
import { mapSink } from '../../subscriptions/map-subscription';

/**
 * POST /event-sinks: one sink (a subscription row with a transport) per event name, all sharing one
 * integration_id and one sealed copy of the credentials; the credentials are never answered.
 */
export class CreateEventSinks {
  constructor(
    private readonly sinks: SubscriptionRepository,
    private readonly secrets: SinkSecrets,
  ) {}

  async execute({ ctx, body }: CreateEventSinksRequest): Promise<HttpReply<EventSink[]>> {
    const names = [...new Set(Array.isArray(body.events) ? body.events : [body.events])];
    const integrationId = randomUUID();
    const credentials =
      body.credentials && Object.keys(body.credentials).length
        ? this.secrets.seal(body.credentials, credentialsAad(ctx.org_id, integrationId))
        : null;
    const metadata = { id: integrationId, name: body.name ?? body.url } as Prisma.InputJsonValue;
    const rows = await this.sinks.createMany(
      ctx.org_id,
      names.map((name) => ({
        integration_name: name,
        integration_id: integrationId,
        integration_metadata: metadata,
        integration_type: 'event_sink',
        type: 'event_sink',
        hook_url: body.url,
        transport: body.transport,
        transport_config: body.config as Prisma.InputJsonValue,
        credentials: credentials ? new Uint8Array(credentials) : null,
        // the column is required; a sink's messages carry the same signature headers as a webhook's
        secret: generateSecret(),
      })),
    );
    return new HttpReply(201, rows.map(mapSink));
  }
}
