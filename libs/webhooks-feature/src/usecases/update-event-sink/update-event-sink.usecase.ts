import { Errors, SINK_CONFIG_SCHEMAS, SINK_SCHEMES, issuesToFields, type EventSink, type UpdateEventSinkRequest } from '@mapi/contracts';
import type { Prisma } from '@mapi/db';
import type { SubscriptionChanges, SubscriptionRepository } from '../../repositories/subscription-repository';
import { credentialsAad, type SinkSecrets } from '../../sinks/sink-secrets';
import { mapSink } from '../../subscriptions/map-subscription';
import { webhookNotFound } from '../get-webhook/get-webhook.usecase';

/**
 * PATCH /event-sinks/{id}. The transport stays: the URL's scheme and the config are checked against it
 * (a 422 naming the field). `credentials` replaces them (sealed), null removes them — on this sink and on
 * every sink created with it (same integration) that has the same URL (after this change): the sinks of one
 * POST share one broker login, so a new password is given once. isSubscribed as webhooks'.
 */
export class UpdateEventSink {
  constructor(
    private readonly sinks: SubscriptionRepository,
    private readonly secrets: SinkSecrets,
  ) {}

  async execute({ ctx, params, body }: UpdateEventSinkRequest): Promise<EventSink> {
    const current = await this.sinks.find(ctx.org_id, params.id);
    if (!current) throw webhookNotFound('sinks');
    const transport = current.transport as keyof typeof SINK_CONFIG_SCHEMAS;
    const changes: SubscriptionChanges = {};
    if (body.url !== undefined) {
      if (!SINK_SCHEMES[transport].includes(new URL(body.url).protocol.replace(/:$/, ''))) {
        throw Errors.validation({
          'body.url': { message: `url scheme does not match the transport ${transport} (${SINK_SCHEMES[transport].join(', ')})` },
        });
      }
      changes.hook_url = body.url;
    }
    if (body.config !== undefined) {
      const parsed = SINK_CONFIG_SCHEMAS[transport].safeParse(body.config);
      if (!parsed.success) throw Errors.validation(prefixed(issuesToFields('body', parsed.error.issues, body.config)));
      changes.transport_config = parsed.data as Prisma.InputJsonValue;
    }
    if (body.event !== undefined) changes.integration_name = body.event;
    let credentials: Uint8Array<ArrayBuffer> | null | undefined;
    if (body.credentials !== undefined) {
      const empty = body.credentials === null || Object.keys(body.credentials).length === 0;
      credentials =
        empty || !body.credentials
          ? null
          : new Uint8Array(this.secrets.seal(body.credentials, credentialsAad(ctx.org_id, current.integration_id)));
    }
    if (body.name !== undefined) {
      changes.integration_metadata = { ...(current.integration_metadata as object), name: body.name } as Prisma.InputJsonValue;
    }
    if (body.isSubscribed !== undefined && body.isSubscribed !== current.is_subscribed) {
      changes.is_subscribed = body.isSubscribed;
      if (body.isSubscribed) Object.assign(changes, { disabled_reason: null, failing_since: null, subscribed_at: new Date() });
      else changes.disabled_reason = 'paused';
    }
    let row = await this.sinks.update(ctx.org_id, params.id, changes);
    if (!row) throw webhookNotFound('sinks');
    if (credentials !== undefined) {
      // the sinks created together that point at the same broker (URL) share them: all get the new ones
      await this.sinks.setSharedCredentials(ctx.org_id, params.id, row.integration_id, row.hook_url, credentials);
      row = await this.sinks.find(ctx.org_id, params.id);
      if (!row) throw webhookNotFound('sinks');
    }
    return mapSink(row);
  }
}

/** The config's fields as the body names them: body.config.<field>. */
function prefixed<T>(fields: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(fields).map(([k, v]) => [k.replace(/^body\.?/, 'body.config.').replace(/\.$/, ''), v]));
}
