import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import {
  AmqpConfigSchema,
  EventSinkSchema,
  KafkaConfigSchema,
  MqttConfigSchema,
  NatsConfigSchema,
  SINK_SCHEMES,
  SinkCredentialsSchema,
  SinkEventsSchema,
  SinkUrlSchema,
} from '../event-sink/event-sink.schema';

const common = {
  url: SinkUrlSchema,
  /** One sink per event name, as POST /webhooks. */
  events: SinkEventsSchema,
  credentials: SinkCredentialsSchema.optional(),
  /** Shown as the sink's name (the URL when omitted). */
  name: z.string().min(1).max(200).optional(),
};

/** The URL's scheme, '' when it does not parse (the url field's own check says why). */
const schemeOf = (url: string) => {
  try {
    return new URL(url).protocol.replace(/:$/, '');
  } catch {
    return '';
  }
};

export const CreateEventSinksBody = z
  .discriminatedUnion(
    'transport',
    [
      z.object({ transport: z.literal('amqp'), config: AmqpConfigSchema.prefault({}), ...common }),
      z.object({ transport: z.literal('mqtt'), config: MqttConfigSchema.prefault({}), ...common }),
      z.object({ transport: z.literal('nats'), config: NatsConfigSchema.prefault({}), ...common }),
      z.object({ transport: z.literal('kafka'), config: KafkaConfigSchema.prefault({}), ...common }),
    ],
    { error: 'transport must be one of amqp, mqtt, nats, kafka' },
  )
  .refine((b) => SINK_SCHEMES[b.transport]?.includes(schemeOf(b.url)), {
    message: 'url scheme does not match the transport (amqp: amqp/amqps, mqtt: mqtt/mqtts, nats: nats/tls, kafka: kafka/kafkas)',
    path: ['url'],
  });
export type CreateEventSinksBody = z.infer<typeof CreateEventSinksBody>;

export const CreateEventSinksResponse = z.array(EventSinkSchema);

export const CreateEventSinksRpc = defineRpc({
  subject: 'webhooks.v1.sinks.create',
  service: 'webhooks',
  request: z.object({ ctx: RequestContextSchema, body: CreateEventSinksBody }),
  response: CreateEventSinksResponse,
});
export type CreateEventSinksRequest = z.infer<typeof CreateEventSinksRpc.request>;

export const CreateEventSinksRoute = defineRoute({
  operationId: 'createEventSinks',
  method: 'POST',
  path: '/event-sinks',
  tag: 'webhooks',
  summary: 'Send events to an AMQP exchange, an MQTT broker, a NATS server or a Kafka topic (one sink per event name)',
  description:
    'Answers 201 with the created sinks. Credentials are sealed at rest and never returned (has_credentials shows them). ' +
    'Unknown event names, a URL whose scheme does not match the transport and credentials inside the URL are a 422.',
  body: CreateEventSinksBody,
  phone: 'none',
  role: 'admin',
  audit: { action: 'event_sink.created' },
  rpc: CreateEventSinksRpc,
  successStatus: 201,
  response: CreateEventSinksResponse,
});
