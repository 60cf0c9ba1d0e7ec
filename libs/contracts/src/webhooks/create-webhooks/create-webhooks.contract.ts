import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { CreatedWebhookSubscriptionSchema, EventNameSchema, HookUrlSchema } from '../subscription/subscription.schema';

/** Request bodies are camelCase as in the wider API's client. */
export const CreateWebhooksBody = z.object({
  hookUrl: HookUrlSchema,
  /** One subscription per name. */
  integrationName: z.union([EventNameSchema, z.array(EventNameSchema).min(1, 'give at least one event name').max(50)], {
    error: 'must be an event name or a non-empty array of event names',
  }),
  integrationMetadata: z.record(z.string(), z.unknown()).optional(),
  integrationType: z.string().min(1).max(100).optional(),
  type: z.string().min(1).max(100).optional(),
  /** Shown as integration_metadata.name (the hook URL when omitted). */
  name: z.string().min(1).max(200).optional(),
});
export type CreateWebhooksBody = z.infer<typeof CreateWebhooksBody>;

export const CreateWebhooksResponse = z.array(CreatedWebhookSubscriptionSchema);

export const CreateWebhooksRpc = defineRpc({
  subject: 'webhooks.v1.subscriptions.create',
  service: 'webhooks',
  request: z.object({ ctx: RequestContextSchema, body: CreateWebhooksBody }),
  response: CreateWebhooksResponse,
});
export type CreateWebhooksRequest = z.infer<typeof CreateWebhooksRpc.request>;

export const CreateWebhooksRoute = defineRoute({
  operationId: 'createWebhooks',
  method: 'POST',
  path: '/webhooks',
  tag: 'webhooks',
  summary: 'Subscribe a URL to one or more events (one subscription per event name)',
  description:
    'Answers 201 with the created subscriptions, each with its signing secret (whsec_…), shown only here and on rotation. ' +
    'Unknown event names and non-http(s) URLs are a 422.',
  body: CreateWebhooksBody,
  phone: 'none',
  role: 'admin',
  rpc: CreateWebhooksRpc,
  successStatus: 201,
  response: CreateWebhooksResponse,
});
