import { z } from 'zod';
import { EventNameSchema } from '../subscription/subscription.schema';

/** Issue 36: the transports an event sink can use (Kafka: tested against a Kafka-protocol test broker, docs/services/event-sinks.md). */
export const SINK_TRANSPORTS = ['amqp', 'mqtt', 'nats', 'kafka'] as const;
export type SinkTransport = (typeof SINK_TRANSPORTS)[number];

/** The URL schemes of each transport (the TLS one second). */
export const SINK_SCHEMES: Record<SinkTransport, readonly string[]> = {
  amqp: ['amqp', 'amqps'],
  mqtt: ['mqtt', 'mqtts'],
  nats: ['nats', 'tls'],
  kafka: ['kafka', 'kafkas'],
};

const text = (name: string, max: number) =>
  z
    .string({ error: `${name} must be a string` })
    .min(1, `${name} must not be empty`)
    .max(max, `${name} must be at most ${max} characters`);

/** The broker's address, without credentials (those go in `credentials`, sealed at rest). */
export const SinkUrlSchema = z
  .string({ error: 'url must be a string' })
  .max(2048, 'url must be at most 2048 characters')
  .pipe(
    z.url({
      protocol: /^(amqps?|mqtts?|nats|tls|kafkas?)$/,
      error: 'url must be an amqp(s)://, mqtt(s)://, nats://, tls:// or kafka(s):// URL',
    }),
  )
  .refine((u) => !/^[a-z]+:\/\/[^/?#]*@/i.test(u), 'url must not hold credentials: give them in credentials');

/**
 * Every transport: with `orderByChat`, a chat's events are delivered one at a time in the order they
 * happened (the next waits until the previous one is delivered or given up); without, concurrently.
 */
const orderByChat = z.boolean({ error: 'orderByChat must be a boolean' }).default(false);

/** AMQP 0-9-1: published to `exchange` (it must exist) with the event name as routing key. */
export const AmqpConfigSchema = z.strictObject({ exchange: text('exchange', 255).default('amq.topic'), orderByChat });
/** MQTT: topic `<topicPrefix>/<event name>`, QoS 1; protocolVersion 4 (3.1.1) or 5. */
export const MqttConfigSchema = z.strictObject({
  topicPrefix: text('topicPrefix', 200)
    .regex(/^[^#+\0]+$/, 'topicPrefix must not hold MQTT wildcards (+ #)')
    .default('mapi'),
  protocolVersion: z.union([z.literal(4), z.literal(5)], { error: 'protocolVersion must be 4 (3.1.1) or 5' }).default(4),
  orderByChat,
});
/** NATS: subject `<subjectPrefix>.<event name>`; with jetstream, a JetStream publish with Nats-Msg-Id = event id. */
export const NatsConfigSchema = z.strictObject({
  subjectPrefix: text('subjectPrefix', 200)
    .regex(/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/, 'subjectPrefix must be NATS subject tokens (letters, digits, _ or -) joined by dots')
    .default('mapi'),
  jetstream: z.boolean({ error: 'jetstream must be a boolean' }).default(false),
  orderByChat,
});
/**
 * Kafka: every event to `topic` (it must exist), keyed by its chat id (data.chat_id; none: no key), so a
 * chat's events share a partition; orderByChat (on by default here) sends them one at a time, in order.
 * With credentials' username and password, SASL with `saslMechanism`.
 */
export const KafkaConfigSchema = z.strictObject({
  topic: text('topic', 249)
    .regex(/^[A-Za-z0-9._-]+$/, 'topic must be a Kafka topic name (letters, digits, dots, _ or -)')
    .refine((t) => t !== '.' && t !== '..', 'topic must not be . or ..')
    .default('mapi-events'),
  saslMechanism: z
    .enum(['plain', 'scram-sha-256', 'scram-sha-512'], { error: 'saslMechanism must be plain, scram-sha-256 or scram-sha-512' })
    .default('plain'),
  orderByChat: z.boolean({ error: 'orderByChat must be a boolean' }).default(true),
});
export const SINK_CONFIG_SCHEMAS = {
  amqp: AmqpConfigSchema,
  mqtt: MqttConfigSchema,
  nats: NatsConfigSchema,
  kafka: KafkaConfigSchema,
} as const;

/** Sealed at rest with the service's key and never returned: only `has_credentials` shows they exist. */
export const SinkCredentialsSchema = z.strictObject({
  username: text('username', 500).optional(),
  password: text('password', 2000).optional(),
  /** NATS token authentication. */
  token: text('token', 4000).optional(),
  /** PEM: the CA to trust, and a client certificate with its key (TLS URLs). */
  tlsCa: text('tlsCa', 20_000).optional(),
  tlsCert: text('tlsCert', 20_000).optional(),
  tlsKey: text('tlsKey', 20_000).optional(),
});
export type SinkCredentials = z.infer<typeof SinkCredentialsSchema>;

/** An event sink as answered: never its credentials. One object per event name, as webhook subscriptions. */
export const EventSinkSchema = z.object({
  id: z.uuid(),
  org_id: z.uuid(),
  /** Shared by the sinks created together. */
  integration_id: z.uuid(),
  name: z.string(),
  event: z.string(),
  transport: z.enum(SINK_TRANSPORTS),
  url: z.string(),
  config: z.record(z.string(), z.unknown()),
  has_credentials: z.boolean(),
  is_subscribed: z.boolean(),
  /** Why delivery stopped: paused, failing; null while active. */
  disabled_reason: z.string().nullable(),
  subscribed_at: z.string(),
});
export type EventSink = z.infer<typeof EventSinkSchema>;

export const EventSinkIdParams = z.object({ id: z.string().min(1, 'id is required').pipe(z.uuid('id must be a UUID')) });

export const SinkEventsSchema = z.union([EventNameSchema, z.array(EventNameSchema).min(1, 'give at least one event name').max(50)], {
  error: 'events must be an event name or a non-empty array of event names',
});
