import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { EventSinkSchema, SINK_TRANSPORTS } from '../event-sink/event-sink.schema';

export const ListEventSinksQuery = z.object({
  transport: z.enum(SINK_TRANSPORTS, { error: 'transport must be one of amqp, mqtt, nats, kafka' }).optional(),
});

export const ListEventSinksResponse = z.array(EventSinkSchema);

export const ListEventSinksRpc = defineRpc({
  subject: 'webhooks.v1.sinks.list',
  service: 'webhooks',
  request: z.object({ ctx: RequestContextSchema, query: ListEventSinksQuery }),
  response: ListEventSinksResponse,
});
export type ListEventSinksRequest = z.infer<typeof ListEventSinksRpc.request>;

export const ListEventSinksRoute = defineRoute({
  operationId: 'listEventSinks',
  method: 'GET',
  path: '/event-sinks',
  tag: 'webhooks',
  summary: "The organization's event sinks (AMQP, MQTT, NATS), oldest first",
  query: ListEventSinksQuery,
  phone: 'none',
  role: 'admin',
  rpc: ListEventSinksRpc,
  successStatus: 200,
  response: ListEventSinksResponse,
});
