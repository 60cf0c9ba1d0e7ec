import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { WebhookIdParams } from '../subscription/subscription.schema';

const intQuery = (name: string, min: number, max: number) =>
  z.preprocess(
    (v) => (typeof v === 'string' && !/^\d+$/.test(v.trim()) ? Number.NaN : v),
    z.coerce
      .number({ error: `${name} must be a number` })
      .int(`${name} must be a whole number`)
      .min(min, `${name} should be at least ${min}`)
      .max(max, `${name} should be at most ${max}`),
  );

export const ListWebhookAttemptsQuery = z.object({
  limit: intQuery('limit', 1, 1000).default(100),
  offset: intQuery('offset', 0, 1_000_000).default(0),
  event_id: z.uuid('event_id must be a UUID').optional(),
});

/** One HTTP attempt of the delivery log. */
export const WebhookAttemptSchema = z.object({
  event_id: z.uuid(),
  event_type: z.string(),
  attempt: z.number().int(),
  attempted_at: z.string(),
  success: z.boolean(),
  status_code: z.number().int().nullable(),
  latency_ms: z.number().int(),
  /** First 20 kB of the answer. */
  response_body: z.string().nullable(),
  error: z.string().nullable(),
});
export type WebhookAttempt = z.infer<typeof WebhookAttemptSchema>;

export const ListWebhookAttemptsResponse = z.object({ count: z.number().int(), attempts: z.array(WebhookAttemptSchema) });
export type ListWebhookAttemptsResponse = z.infer<typeof ListWebhookAttemptsResponse>;

export const ListWebhookAttemptsRpc = defineRpc({
  subject: 'webhooks.v1.attempts.list',
  service: 'webhooks',
  request: z.object({ ctx: RequestContextSchema, params: WebhookIdParams, query: ListWebhookAttemptsQuery }),
  response: ListWebhookAttemptsResponse,
});
export type ListWebhookAttemptsRequest = z.infer<typeof ListWebhookAttemptsRpc.request>;

export const ListWebhookAttemptsRoute = defineRoute({
  operationId: 'listWebhookAttempts',
  method: 'GET',
  path: '/webhooks/{id}/deliveries',
  tag: 'webhooks',
  summary: 'The delivery log of a subscription: every attempt, newest first',
  params: WebhookIdParams,
  query: ListWebhookAttemptsQuery,
  phone: 'none',
  role: 'admin',
  rpc: ListWebhookAttemptsRpc,
  successStatus: 200,
  response: ListWebhookAttemptsResponse,
});
