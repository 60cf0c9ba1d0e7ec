import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { WebhookIdParams, WebhookSubscriptionSchema } from '../subscription/subscription.schema';

export const GetWebhookRpc = defineRpc({
  subject: 'webhooks.v1.subscriptions.get',
  service: 'webhooks',
  request: z.object({ ctx: RequestContextSchema, params: WebhookIdParams }),
  response: WebhookSubscriptionSchema,
});
export type GetWebhookRequest = z.infer<typeof GetWebhookRpc.request>;

export const GetWebhookRoute = defineRoute({
  operationId: 'getWebhook',
  method: 'GET',
  path: '/webhooks/{id}',
  tag: 'webhooks',
  summary: 'One webhook subscription',
  description: "An unknown id, or another organization's, is a 404.",
  params: WebhookIdParams,
  phone: 'none',
  role: 'admin',
  rpc: GetWebhookRpc,
  successStatus: 200,
  response: WebhookSubscriptionSchema,
});
