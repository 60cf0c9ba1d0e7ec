import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { EventSinkIdParams } from '../event-sink/event-sink.schema';
import { ListWebhookAttemptsQuery, ListWebhookAttemptsResponse } from '../list-attempts/list-attempts.contract';

/** The same log as a webhook's: status_code is null for a broker (success is the broker's ack), error its message. */
export const ListEventSinkAttemptsRpc = defineRpc({
  subject: 'webhooks.v1.sinks.attempts.list',
  service: 'webhooks',
  request: z.object({ ctx: RequestContextSchema, params: EventSinkIdParams, query: ListWebhookAttemptsQuery }),
  response: ListWebhookAttemptsResponse,
});
export type ListEventSinkAttemptsRequest = z.infer<typeof ListEventSinkAttemptsRpc.request>;

export const ListEventSinkAttemptsRoute = defineRoute({
  operationId: 'listEventSinkAttempts',
  method: 'GET',
  path: '/event-sinks/{id}/deliveries',
  tag: 'webhooks',
  summary: 'The delivery log of an event sink: every attempt, newest first',
  params: EventSinkIdParams,
  query: ListWebhookAttemptsQuery,
  phone: 'none',
  role: 'admin',
  rpc: ListEventSinkAttemptsRpc,
  successStatus: 200,
  response: ListWebhookAttemptsResponse,
});
