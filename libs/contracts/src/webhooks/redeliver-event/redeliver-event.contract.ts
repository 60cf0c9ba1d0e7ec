import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { WebhookIdParams } from '../subscription/subscription.schema';

export const RedeliverEventBody = z.object({ eventId: z.uuid('eventId must be a UUID') });

export const RedeliverEventResponse = z.object({ subscription_id: z.uuid(), event_id: z.uuid(), scheduled: z.literal(true) });

export const RedeliverEventRpc = defineRpc({
  subject: 'webhooks.v1.deliveries.redeliver',
  service: 'webhooks',
  request: z.object({ ctx: RequestContextSchema, params: WebhookIdParams, body: RedeliverEventBody }),
  response: RedeliverEventResponse,
});
export type RedeliverEventRequest = z.infer<typeof RedeliverEventRpc.request>;

export const RedeliverEventRoute = defineRoute({
  operationId: 'redeliverWebhookEvent',
  method: 'POST',
  path: '/webhooks/{id}/redeliver',
  tag: 'webhooks',
  summary: 'Send one event to this subscription again, now (same event id)',
  description: "404 when the event is unknown, of another organization, or not of this subscription's event name.",
  params: WebhookIdParams,
  body: RedeliverEventBody,
  phone: 'none',
  role: 'admin',
  rpc: RedeliverEventRpc,
  successStatus: 202,
  response: RedeliverEventResponse,
});
