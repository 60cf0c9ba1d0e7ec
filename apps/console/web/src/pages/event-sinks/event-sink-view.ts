import type { WebhookAttempt } from '../../api/types';

/**
 * The event sinks page's logic, free of the DOM (issue 36, docs/services/event-sinks.md): the shapes of
 * /v1/event-sinks copied from the contracts (the bundle carries no schema code), the create and edit
 * bodies from the forms' values, and how a sink and its delivery log read.
 */
export type SinkTransport = 'amqp' | 'mqtt' | 'nats' | 'kafka';

/** An event sink as the API answers it: never its credentials, only whether it has some. */
export interface EventSink {
  id: string;
  org_id: string;
  integration_id: string;
  name: string;
  event: string;
  transport: SinkTransport;
  url: string;
  config: Record<string, unknown>;
  has_credentials: boolean;
  is_subscribed: boolean;
  disabled_reason: string | null;
  subscribed_at: string;
}

/** Each transport as the forms offer it: its label, URL schemes and an example address. */
export const TRANSPORTS: { value: SinkTransport; label: string; schemes: string[]; example: string }[] = [
  { value: 'amqp', label: 'AMQP 0-9-1 (RabbitMQ)', schemes: ['amqp', 'amqps'], example: 'amqps://rabbit.example.com/prod' },
  { value: 'mqtt', label: 'MQTT 3.1.1 / 5', schemes: ['mqtt', 'mqtts'], example: 'mqtts://broker.example.com' },
  { value: 'nats', label: 'NATS', schemes: ['nats', 'tls'], example: 'tls://nats.example.com:4222' },
  { value: 'kafka', label: 'Kafka', schemes: ['kafka', 'kafkas'], example: 'kafkas://kafka.example.com:9093' },
];

export const transportLabel = (t: string): string => TRANSPORTS.find((x) => x.value === t)?.label ?? t;

/** The forms' values, as FormData gives them (a checkbox: present or not). */
export type FormValues = Record<string, string | boolean | undefined>;

const text = (v: FormValues[string]) => (typeof v === 'string' ? v.trim() : '');

/**
 * The transport's config from the form: amqp {exchange}, mqtt {topicPrefix, protocolVersion}, nats
 * {subjectPrefix, jetstream}, kafka {topic, saslMechanism}, each with orderByChat. An empty text field
 * is left out (the API's default: amq.topic, mapi, mapi-events).
 */
export function configOf(transport: SinkTransport, v: FormValues): Record<string, unknown> {
  const config: Record<string, unknown> = {};
  const set = (key: string, value: string) => {
    if (value) config[key] = value;
  };
  if (transport === 'amqp') set('exchange', text(v.exchange));
  if (transport === 'mqtt') {
    set('topicPrefix', text(v.topicPrefix));
    config.protocolVersion = text(v.protocolVersion) === '5' ? 5 : 4;
  }
  if (transport === 'nats') {
    set('subjectPrefix', text(v.subjectPrefix));
    config.jetstream = v.jetstream === true;
  }
  if (transport === 'kafka') {
    set('topic', text(v.topic));
    config.saslMechanism = text(v.saslMechanism) || 'plain';
  }
  config.orderByChat = v.orderByChat === true;
  return config;
}

const CREDENTIAL_FIELDS = ['username', 'password', 'token', 'tlsCa', 'tlsCert', 'tlsKey'] as const;

/** The credentials typed in (write-only: never read back); undefined when none was. */
export function credentialsOf(v: FormValues): Record<string, string> | undefined {
  const c: Record<string, string> = {};
  for (const k of CREDENTIAL_FIELDS) {
    // a password or a PEM is sent as typed (no trim: a PEM's final newline, a password's spaces)
    const raw = typeof v[k] === 'string' ? (v[k] as string) : '';
    if (raw.trim()) c[k] = k === 'username' ? raw.trim() : raw;
  }
  return Object.keys(c).length ? c : undefined;
}

/** The body of POST /v1/event-sinks: one sink per chosen event name. */
export function createBody(transport: SinkTransport, v: FormValues, events: string[]): Record<string, unknown> {
  const name = text(v.name);
  const credentials = credentialsOf(v);
  return {
    transport,
    url: text(v.url),
    events: events.length === 1 ? events[0] : events,
    config: configOf(transport, v),
    ...(credentials ? { credentials } : {}),
    ...(name ? { name } : {}),
  };
}

/** The config as the API fills it in (its defaults), so an edit compares like with like. */
export function fullConfig(transport: SinkTransport, config: Record<string, unknown>): Record<string, unknown> {
  // Kafka sinks order by chat unless told not to (its key is the chat id); the others only when told to
  if (transport === 'kafka')
    return {
      topic: config.topic ?? 'mapi-events',
      saslMechanism: config.saslMechanism ?? 'plain',
      orderByChat: config.orderByChat !== false,
    };
  const orderByChat = config.orderByChat === true;
  if (transport === 'amqp') return { exchange: config.exchange ?? 'amq.topic', orderByChat };
  if (transport === 'mqtt')
    return { topicPrefix: config.topicPrefix ?? 'mapi', protocolVersion: config.protocolVersion === 5 ? 5 : 4, orderByChat };
  return { subjectPrefix: config.subjectPrefix ?? 'mapi', jetstream: config.jetstream === true, orderByChat };
}

/**
 * The changed fields of an edit, as PATCH /v1/event-sinks/{id} takes them; null when nothing changed.
 * The config goes whole (the API replaces it); credentials only when some were typed (they are never
 * shown, so an empty field keeps them).
 */
export function editBody(
  before: Pick<EventSink, 'transport' | 'url' | 'event' | 'name' | 'config'>,
  v: FormValues,
): Record<string, unknown> | null {
  const body: Record<string, unknown> = {};
  const url = text(v.url);
  if (url && url !== before.url) body.url = url;
  const event = text(v.event);
  if (event && event !== before.event) body.event = event;
  const name = text(v.name);
  if (name && name !== before.name) body.name = name;
  const config = fullConfig(before.transport, configOf(before.transport, v));
  if (JSON.stringify(config) !== JSON.stringify(fullConfig(before.transport, before.config))) body.config = config;
  const credentials = credentialsOf(v);
  if (credentials) body.credentials = credentials;
  return Object.keys(body).length ? body : null;
}

/** Where the sink's messages go, in the broker's own terms. */
export function destination(s: Pick<EventSink, 'transport' | 'event' | 'config'>): string {
  const c = fullConfig(s.transport, s.config);
  if (s.transport === 'amqp') return `exchange ${c.exchange}, routing key ${s.event}`;
  if (s.transport === 'mqtt') return `topic ${c.topicPrefix}/${s.event}, QoS 1, MQTT ${c.protocolVersion === 5 ? '5' : '3.1.1'}`;
  if (s.transport === 'kafka') return `topic ${c.topic}, key = chat id, acks = all`;
  return `subject ${c.subjectPrefix}.${s.event}${c.jetstream ? ', JetStream (deduplicated by event id)' : ''}`;
}

/** The sink's state: delivering, paused by a person, or disabled after failing. */
export function stateText(s: Pick<EventSink, 'is_subscribed' | 'disabled_reason'>): string {
  if (s.is_subscribed) return 'active';
  return s.disabled_reason === 'failing' ? 'disabled: kept failing' : 'disabled';
}

/** An attempt as the log shows it: acknowledged by the broker, or why not. */
export const outcome = (a: Pick<WebhookAttempt, 'success' | 'error'>): string =>
  a.success ? 'delivered · acknowledged by the broker' : `failed · ${a.error ?? 'no answer from the broker'}`;

/** The broker's certificate not trusted by us (the log's words, libs/webhooks-feature/src/sinks/tls-error.ts; Node's own reasons). */
const SERVER_UNTRUSTED =
  /certificate is not trusted|self[- ]signed certificate|unable to verify the first certificate|unable to get (local )?issuer certificate/i;
/** The broker's refusal of our client certificate (an alert at the handshake, nats-server dropping the connection). */
const CLIENT_CERT_REFUSAL =
  /refused our client certificate|refuses the client certificate|alert (certificate required|bad certificate|unknown ca|certificate unknown|certificate expired|certificate revoked|access denied)/i;
/** A broker's refusal of the login (RabbitMQ, Mosquitto, nats-server, Kafka wordings). */
const LOGIN_REFUSAL =
  /ACCESS_REFUSED|not authori[sz]ed|bad user ?name or password|authori[sz]ation[ _]violation|authentication|do not open with/i;

/** What to do about a failed delivery, by its reason: the broker's certificate, our client certificate, the login, or else. */
export function failureAdvice(reason: string): string {
  if (SERVER_UNTRUSTED.test(reason))
    return "The broker's certificate is not trusted: give the CA that issued it as the CA certificate (tlsCa) in the form above.";
  if (CLIENT_CERT_REFUSAL.test(reason))
    return 'The broker refused our client certificate: give a client certificate and key (tlsCert, tlsKey) issued by a CA it trusts in the form above (they are never shown back).';
  if (LOGIN_REFUSAL.test(reason))
    return 'The broker refused the credentials: type them again in the form above (they are never shown back).';
  return 'The delivery is retried on the webhook schedule; check the address, the exchange, topic or stream, and that the broker is up.';
}

/**
 * The newest attempt's failure, for a notice above the log: its reason and what to do; null when the
 * newest attempt succeeded or there is none.
 */
export function latestFailure(attempts: Pick<WebhookAttempt, 'success' | 'error'>[]): { reason: string; advice: string } | null {
  const newest = attempts[0];
  if (!newest || newest.success) return null;
  const reason = newest.error ?? 'no answer from the broker';
  return { reason, advice: failureAdvice(reason) };
}
