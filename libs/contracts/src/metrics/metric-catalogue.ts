/**
 * Every metric the apps export on GET /metrics of their health port, in one list. Each instrument
 * of the code is created under a name of this list (test/boundaries/metric-catalogue.spec.ts reads
 * the sources: no instrument outside it, no entry without its instrument), and the deployment's
 * dashboards and KEDA queries may only name these (test/deploy). Names follow the OpenTelemetry
 * semantic conventions where one exists, else `mapi.*`; units are UCUM (`s`) or `{thing}`.
 * The Prometheus exporter writes a name with `.` as `_`, no unit suffix, `_total` after a counter's
 * name and `_bucket`/`_sum`/`_count` after a histogram's (prometheusSeries).
 */
export type MetricKind = 'counter' | 'histogram' | 'gauge';

/** The meter every instrument of this project is created from. */
export const METER_NAME = 'mapi';

/** Bucket bounds, in seconds, for every duration histogram (request, RPC, lag): 5 ms to 60 s. */
export const DURATION_BUCKETS_S = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

export interface MetricDefinition {
  /** The OpenTelemetry instrument name. */
  readonly name: string;
  readonly kind: MetricKind;
  readonly unit: string;
  readonly description: string;
  /** The apps that export it (apps/<name>). */
  readonly apps: readonly string[];
}

/** The apps that answer RPCs over NATS (every service but the gateway and the embedding worker). */
const RPC_APPS = [
  'automation',
  'chats',
  'groups',
  'inbox',
  'knowledge-base',
  'media',
  'members',
  'phones',
  'queue',
  'webhooks-dispatcher',
] as const;
/** The apps that run an outbox relay (libs/events): one publishes at a time, all report. */
const RELAY_APPS = ['automation', 'chats', 'groups', 'inbox', 'phones'] as const;

export const METRICS = {
  httpServerRequestDuration: {
    name: 'http.server.request.duration',
    kind: 'histogram',
    unit: 's',
    description: 'Time to answer an HTTP request, by method, route template and status',
    apps: ['api-gateway'],
  },
  rpcServerCallDuration: {
    name: 'rpc.server.call.duration',
    kind: 'histogram',
    unit: 's',
    description: 'Time to answer an RPC, by subject and outcome (HTTP status code)',
    apps: RPC_APPS,
  },
  realtimeConnections: {
    name: 'mapi.realtime.connections',
    kind: 'gauge',
    unit: '{connection}',
    description: 'Open realtime (socket.io) connections on this gateway replica',
    apps: ['api-gateway'],
  },
  queueJobs: {
    name: 'mapi.queue.jobs',
    kind: 'gauge',
    unit: '{job}',
    description: 'Send-queue jobs across every phone, by state',
    apps: ['queue'],
  },
  queuePhoneJobs: {
    name: 'mapi.queue.phone.jobs',
    kind: 'gauge',
    unit: '{job}',
    description: 'Send-queue jobs of one phone, by state (phones with jobs only)',
    apps: ['queue'],
  },
  queuePhoneOldestDueAge: {
    name: 'mapi.queue.phone.oldest_due.age',
    kind: 'gauge',
    unit: 's',
    description: 'How long the next due job of a phone has been due (phones with due jobs only)',
    apps: ['queue'],
  },
  queuePhonesWaiting: {
    name: 'mapi.queue.phones.waiting',
    kind: 'gauge',
    unit: '{phone}',
    description: 'Phones with send jobs due and not yet taken by a worker',
    apps: ['queue'],
  },
  phoneSessions: {
    name: 'mapi.phone.sessions',
    kind: 'gauge',
    unit: '{session}',
    description: 'Phone sessions run by this replica, by connection state',
    apps: ['phones'],
  },
  ingestLag: {
    name: 'mapi.ingest.lag',
    kind: 'histogram',
    unit: 's',
    description: 'From a connector event stored in JetStream to it being applied in Postgres',
    apps: ['chats'],
  },
  outboxEventsPublished: {
    name: 'mapi.outbox.events.published',
    kind: 'counter',
    unit: '{event}',
    description: 'Events published to NATS by the outbox relay, by event type',
    apps: RELAY_APPS,
  },
  outboxRelayLag: {
    name: 'mapi.outbox.relay.lag',
    kind: 'histogram',
    unit: 's',
    description: 'From an event being committed to its publication on NATS',
    apps: RELAY_APPS,
  },
  outboxBacklog: {
    name: 'mapi.outbox.backlog',
    kind: 'gauge',
    unit: '{event}',
    description: 'Committed events not yet published',
    apps: RELAY_APPS,
  },
  streamConsumerUp: {
    name: 'mapi.stream.consumer.up',
    kind: 'gauge',
    unit: '{consumer}',
    description: 'Whether a JetStream consumer of this process is consuming (1) or down and restarting itself (0), by consumer',
    apps: ['api-gateway', 'automation', 'chats', 'webhooks-dispatcher'],
  },
  webhookDeliveryAttempts: {
    name: 'mapi.webhook.delivery.attempts',
    kind: 'counter',
    unit: '{attempt}',
    description: 'Webhook delivery attempts by outcome (retry: failed, another attempt is scheduled)',
    apps: ['webhooks-dispatcher'],
  },
  webhookDeliverySettledAttempts: {
    name: 'mapi.webhook.delivery.settled_attempts',
    kind: 'histogram',
    unit: '{attempt}',
    description: 'Attempts a delivery took until it succeeded or failed for good',
    apps: ['webhooks-dispatcher'],
  },
  webhookDeliveryLatency: {
    name: 'mapi.webhook.delivery.latency',
    kind: 'histogram',
    unit: 's',
    description: 'From the event being committed to the receiver accepting it',
    apps: ['webhooks-dispatcher'],
  },
  embeddingJobs: {
    name: 'mapi.embedding.jobs',
    kind: 'gauge',
    unit: '{job}',
    description: 'Knowledge-base embedding jobs, by state',
    apps: ['embedding-worker'],
  },
  embeddingEntriesPending: {
    name: 'mapi.embedding.entries.pending',
    kind: 'gauge',
    unit: '{entry}',
    description: 'Knowledge-base entries whose embedding is not yet stored (not searchable yet)',
    apps: ['embedding-worker'],
  },
  workflowRuns: {
    name: 'mapi.workflow.runs',
    kind: 'counter',
    unit: '{run}',
    description: 'Workflow runs that ended, by status (completed, failed, skipped: held back by a limit)',
    apps: ['automation'],
  },
  workflowStepDuration: {
    name: 'mapi.workflow.step.duration',
    kind: 'histogram',
    unit: 's',
    description: 'Time to run one workflow action (a step), by action type and outcome (completed, failed, skipped, retry)',
    apps: ['automation'],
  },
  workflowFirstActionLatency: {
    name: 'mapi.workflow.first_action.latency',
    kind: 'histogram',
    unit: 's',
    description: "From a triggering event's creation to its run's first action being started",
    apps: ['automation'],
  },
  workflowStepsDue: {
    name: 'mapi.workflow.steps.due',
    kind: 'gauge',
    unit: '{step}',
    description: "Workflow steps due and not yet done (the executors' backlog; each replica reports the same figure)",
    apps: ['automation'],
  },
} as const satisfies Record<string, MetricDefinition>;

export type MetricKey = keyof typeof METRICS;

/** The instrument options (description, unit) of a catalogued metric. */
export const metricOptions = (metric: MetricDefinition) => ({ description: metric.description, unit: metric.unit });

/** The metric's name as the Prometheus exporter writes it. */
export const prometheusName = (metric: MetricDefinition): string => metric.name.replace(/[^a-zA-Z0-9_]/g, '_');

/** The series names a scrape shows for the metric (what a PromQL query may name). */
export function prometheusSeries(metric: MetricDefinition): string[] {
  const base = prometheusName(metric);
  if (metric.kind === 'counter') return [`${base}_total`];
  if (metric.kind === 'histogram') return [`${base}_bucket`, `${base}_sum`, `${base}_count`];
  return [base];
}
