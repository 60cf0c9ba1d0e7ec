import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { EventSinkIdParams } from '../event-sink/event-sink.schema';
import { RedeliverEventBody, RedeliverEventResponse } from '../redeliver-event/redeliver-event.contract';

export const RedeliverEventSinkRpc = defineRpc({
  subject: 'webhooks.v1.sinks.redeliver',
  service: 'webhooks',
  request: z.object({ ctx: RequestContextSchema, params: EventSinkIdParams, body: RedeliverEventBody }),
  response: RedeliverEventResponse,
});
export type RedeliverEventSinkRequest = z.infer<typeof RedeliverEventSinkRpc.request>;

export const RedeliverEventSinkRoute = defineRoute({
  operationId: 'redeliverEventSinkEvent',
  method: 'POST',
  path: '/event-sinks/{id}/redeliver',
  tag: 'webhooks',
  summary: 'Send one event to this sink again, now (same event id)',
  description: "404 when the event is unknown, of another organization, or not of this sink's event name.",
  params: EventSinkIdParams,
  body: RedeliverEventBody,
  phone: 'none',
  role: 'admin',
  audit: { action: 'event_sink.redelivered', target: 'id' },
  rpc: RedeliverEventSinkRpc,
  successStatus: 202,
  response: RedeliverEventResponse,
});
