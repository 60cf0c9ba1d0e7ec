import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { WebhookIdParams } from '../subscription/subscription.schema';

export const ReplayEventsBody = z
  .object({
    from: z.iso.datetime({ offset: true, error: 'from must be an ISO 8601 date-time' }),
    to: z.iso.datetime({ offset: true, error: 'to must be an ISO 8601 date-time' }),
  })
  .refine((b) => Date.parse(b.from) < Date.parse(b.to), { message: 'from must be before to', path: ['to'] });

export const ReplayEventsResponse = z.object({ subscription_id: z.uuid(), scheduled: z.number().int() });

export const ReplayEventsRpc = defineRpc({
  subject: 'webhooks.v1.deliveries.replay',
  service: 'webhooks',
  request: z.object({ ctx: RequestContextSchema, params: WebhookIdParams, body: ReplayEventsBody }),
  response: ReplayEventsResponse,
});
export type ReplayEventsRequest = z.infer<typeof ReplayEventsRpc.request>;

export const ReplayEventsRoute = defineRoute({
  operationId: 'replayWebhookEvents',
  method: 'POST',
  path: '/webhooks/{id}/replay',
  tag: 'webhooks',
  summary: "Send again every event of this subscription's name created in [from, to)",
  params: WebhookIdParams,
  body: ReplayEventsBody,
  phone: 'none',
  role: 'admin',
  rpc: ReplayEventsRpc,
  successStatus: 202,
  response: ReplayEventsResponse,
});
