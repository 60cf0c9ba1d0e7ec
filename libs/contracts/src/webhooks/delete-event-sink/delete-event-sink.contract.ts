import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { EventSinkIdParams } from '../event-sink/event-sink.schema';

export const DeleteEventSinkRpc = defineRpc({
  subject: 'webhooks.v1.sinks.delete',
  service: 'webhooks',
  request: z.object({ ctx: RequestContextSchema, params: EventSinkIdParams }),
  response: z.null(),
});
export type DeleteEventSinkRequest = z.infer<typeof DeleteEventSinkRpc.request>;

export const DeleteEventSinkRoute = defineRoute({
  operationId: 'deleteEventSink',
  method: 'DELETE',
  path: '/event-sinks/{id}',
  tag: 'webhooks',
  summary: 'Delete an event sink (its pending deliveries and its log go with it)',
  params: EventSinkIdParams,
  phone: 'none',
  role: 'admin',
  audit: { action: 'event_sink.deleted', target: 'id' },
  rpc: DeleteEventSinkRpc,
  successStatus: 204,
});
