import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { WebhookIdParams, WebhookSecretSchema } from '../subscription/subscription.schema';

export const RotateWebhookSecretResponse = z.object({ id: z.uuid(), secret: WebhookSecretSchema });

export const RotateWebhookSecretRpc = defineRpc({
  subject: 'webhooks.v1.subscriptions.rotate-secret',
  service: 'webhooks',
  request: z.object({ ctx: RequestContextSchema, params: WebhookIdParams }),
  response: RotateWebhookSecretResponse,
});
export type RotateWebhookSecretRequest = z.infer<typeof RotateWebhookSecretRpc.request>;

export const RotateWebhookSecretRoute = defineRoute({
  operationId: 'rotateWebhookSecret',
  method: 'POST',
  path: '/webhooks/{id}/secret/rotate',
  tag: 'webhooks',
  summary: 'Replace the signing secret; the new one is shown once, and signs every attempt from now on',
  params: WebhookIdParams,
  phone: 'none',
  role: 'admin',
  rpc: RotateWebhookSecretRpc,
  successStatus: 200,
  response: RotateWebhookSecretResponse,
});
