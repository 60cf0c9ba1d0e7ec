import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { EventSinkIdParams } from '../event-sink/event-sink.schema';
import { ReplayEventsBody, ReplayEventsResponse } from '../replay-events/replay-events.contract';

export const ReplayEventSinkRpc = defineRpc({
  subject: 'webhooks.v1.sinks.replay',
  service: 'webhooks',
  request: z.object({ ctx: RequestContextSchema, params: EventSinkIdParams, body: ReplayEventsBody }),
  response: ReplayEventsResponse,
});
export type ReplayEventSinkRequest = z.infer<typeof ReplayEventSinkRpc.request>;

export const ReplayEventSinkRoute = defineRoute({
  operationId: 'replayEventSinkEvents',
  method: 'POST',
  path: '/event-sinks/{id}/replay',
  tag: 'webhooks',
  summary: "Send again every event of this sink's name created in [from, to)",
  params: EventSinkIdParams,
  body: ReplayEventsBody,
  phone: 'none',
  role: 'admin',
  audit: { action: 'event_sink.replayed', target: 'id' },
  rpc: ReplayEventSinkRpc,
  successStatus: 202,
  response: ReplayEventsResponse,
});
