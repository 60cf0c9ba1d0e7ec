import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { EventNameSchema, HookUrlSchema, WebhookIdParams, WebhookSubscriptionSchema } from '../subscription/subscription.schema';

export const UpdateWebhookBody = z
  .object({
    hookUrl: HookUrlSchema.optional(),
    integrationName: EventNameSchema.optional(),
    integrationMetadata: z.record(z.string(), z.unknown()).optional(),
    integrationType: z.string().min(1).max(100).optional(),
    type: z.string().min(1).max(100).optional(),
    name: z.string().min(1).max(200).optional(),
    /** false pauses delivery; true resumes it (also after an automatic disable). */
    isSubscribed: z.boolean({ error: 'isSubscribed must be a boolean' }).optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), { message: 'nothing to change: give at least one field' });
export type UpdateWebhookBody = z.infer<typeof UpdateWebhookBody>;

export const UpdateWebhookRpc = defineRpc({
  subject: 'webhooks.v1.subscriptions.update',
  service: 'webhooks',
  request: z.object({ ctx: RequestContextSchema, params: WebhookIdParams, body: UpdateWebhookBody }),
  response: WebhookSubscriptionSchema,
});
export type UpdateWebhookRequest = z.infer<typeof UpdateWebhookRpc.request>;

export const UpdateWebhookRoute = defineRoute({
  operationId: 'updateWebhook',
  method: 'PATCH',
  path: '/webhooks/{id}',
  tag: 'webhooks',
  summary: 'Change a webhook subscription (URL, event, metadata, isSubscribed)',
  params: WebhookIdParams,
  body: UpdateWebhookBody,
  phone: 'none',
  role: 'admin',
  rpc: UpdateWebhookRpc,
  successStatus: 200,
  response: WebhookSubscriptionSchema,
});
