import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { EventNameSchema } from '../subscription/subscription.schema';
import { EventSinkIdParams, EventSinkSchema, SinkCredentialsSchema, SinkUrlSchema } from '../event-sink/event-sink.schema';

/** The transport stays; `config` is checked against it (a 422 names the field), `credentials: null` removes them. */
export const UpdateEventSinkBody = z
  .strictObject({
    url: SinkUrlSchema.optional(),
    event: EventNameSchema.optional(),
    config: z.record(z.string(), z.unknown(), { error: 'config must be an object' }).optional(),
    credentials: SinkCredentialsSchema.nullable().optional(),
    name: z.string().min(1).max(200).optional(),
    /** false pauses delivery; true resumes it (also after an automatic disable). */
    isSubscribed: z.boolean({ error: 'isSubscribed must be a boolean' }).optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), { message: 'nothing to change: give at least one field' });
export type UpdateEventSinkBody = z.infer<typeof UpdateEventSinkBody>;

export const UpdateEventSinkRpc = defineRpc({
  subject: 'webhooks.v1.sinks.update',
  service: 'webhooks',
  request: z.object({ ctx: RequestContextSchema, params: EventSinkIdParams, body: UpdateEventSinkBody }),
  response: EventSinkSchema,
});
export type UpdateEventSinkRequest = z.infer<typeof UpdateEventSinkRpc.request>;

export const UpdateEventSinkRoute = defineRoute({
  operationId: 'updateEventSink',
  method: 'PATCH',
  path: '/event-sinks/{id}',
  tag: 'webhooks',
  summary: 'Change an event sink (URL, event, config, credentials, name, isSubscribed)',
  params: EventSinkIdParams,
  body: UpdateEventSinkBody,
  phone: 'none',
  role: 'admin',
  audit: { action: 'event_sink.updated', target: 'id' },
  rpc: UpdateEventSinkRpc,
  successStatus: 200,
  response: EventSinkSchema,
});
