import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { EventSinkIdParams, EventSinkSchema } from '../event-sink/event-sink.schema';

export const GetEventSinkRpc = defineRpc({
  subject: 'webhooks.v1.sinks.get',
  service: 'webhooks',
  request: z.object({ ctx: RequestContextSchema, params: EventSinkIdParams }),
  response: EventSinkSchema,
});
export type GetEventSinkRequest = z.infer<typeof GetEventSinkRpc.request>;

export const GetEventSinkRoute = defineRoute({
  operationId: 'getEventSink',
  method: 'GET',
  path: '/event-sinks/{id}',
  tag: 'webhooks',
  summary: 'One event sink (never its credentials)',
  params: EventSinkIdParams,
  phone: 'none',
  role: 'admin',
  rpc: GetEventSinkRpc,
  successStatus: 200,
  response: EventSinkSchema,
});
