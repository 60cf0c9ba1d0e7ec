import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { WebhookIdParams } from '../subscription/subscription.schema';

export const DeleteWebhookRpc = defineRpc({
  subject: 'webhooks.v1.subscriptions.delete',
  service: 'webhooks',
  request: z.object({ ctx: RequestContextSchema, params: WebhookIdParams }),
  response: z.null(),
});
export type DeleteWebhookRequest = z.infer<typeof DeleteWebhookRpc.request>;

export const DeleteWebhookRoute = defineRoute({
  operationId: 'deleteWebhook',
  method: 'DELETE',
  path: '/webhooks/{id}',
  tag: 'webhooks',
  summary: 'Delete a webhook subscription (its pending deliveries and its log go with it)',
  params: WebhookIdParams,
  phone: 'none',
  role: 'admin',
  rpc: DeleteWebhookRpc,
  successStatus: 204,
});
