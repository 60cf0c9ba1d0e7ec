import { createNoopMeter, type MeterProvider } from '@opentelemetry/api';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { AlwaysOffSampler, BatchSpanProcessor, ParentBasedSampler, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { METRIC_VIEWS, createPrometheusReader } from './metrics';

let sdk: NodeSDK | undefined;

/** What the instrumentation libraries measure with: nothing (see startTelemetry). */
const NO_METRICS: MeterProvider = { getMeter: () => createNoopMeter() };

/** A processor that keeps nothing: spans still get real trace ids (for logs and headers) without an exporter. */
class DiscardingSpanProcessor implements SpanProcessor {
  onStart(): void {}
  onEnd(): void {}
  forceFlush(): Promise<void> {
    return Promise.resolve();
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/**
 * Starts the OpenTelemetry NodeSDK. Must run before any instrumented module (http, pg, ioredis) is
 * imported: each app's main.ts imports its `instrument.ts` first. OTLP/HTTP export only when
 * OTEL_EXPORTER_OTLP_ENDPOINT is set.
 *
 * Without an endpoint nothing is recorded: new traces are not sampled (their spans are non-recording,
 * yet carry real trace ids into logs, headers and NATS messages), a caller's sampled trace is still
 * followed (and discarded), and pg and ioredis are not instrumented at all: recording spans only to discard them, and pg/http
 * metrics, would spend each service's CPU under load for nothing.
 *
 * Metrics are collected by one pull reader in Prometheus's format (metrics.ts, served at
 * GET /metrics of the health port); the instrumentation libraries' own metrics are dropped.
 * METRICS_ENABLED=false registers no meter provider at all (instruments are no-ops, /metrics is a
 * 404): the baseline for measuring what the metrics cost (bench/run.js).
 */
export interface TelemetryOptions {
  /**
   * false: the http instrumentation leaves incoming requests alone (outgoing ones are still traced
   * and carry traceparent); the process makes its server spans itself with traceIncomingRequests
   * (http-server-span.ts), as the api-gateway does. Default true.
   */
  incomingHttpSpans?: boolean;
}

export function startTelemetry(serviceName: string, options: TelemetryOptions = {}): void {
  if (sdk) return;
  const endpoint = process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  const processor: SpanProcessor = endpoint
    ? new BatchSpanProcessor(new OTLPTraceExporter({ url: `${endpoint.replace(/\/$/, '')}/v1/traces` }))
    : new DiscardingSpanProcessor();
  const instrumentations = [
    new HttpInstrumentation({
      ignoreIncomingRequestHook: (req) => (req.url ?? '').startsWith('/health'),
      disableIncomingRequestInstrumentation: options.incomingHttpSpans === false,
    }),
    // Client spans of pg and ioredis only when they can go somewhere: without an exporter every span
    // is discarded, so wrapping each query and Redis command would buy nothing and weigh on a small hot
    // read's CPU in a service (docs/benchmarks.md, "GET /tickets"). The http instrumentation stays:
    // it makes the trace ids of logs, x-service-trace-id and the NATS hop, and follows a caller's traceparent.
    ...(endpoint ? [new PgInstrumentation(), new IORedisInstrumentation()] : []),
  ];
  sdk = new NodeSDK({
    resource: resourceFromAttributes({ 'service.name': process.env.OTEL_SERVICE_NAME ?? serviceName }),
    spanProcessors: [processor],
    metricReaders: process.env.METRICS_ENABLED === 'false' ? [] : [createPrometheusReader()],
    views: METRIC_VIEWS,
    ...(endpoint ? {} : { sampler: new ParentBasedSampler({ root: new AlwaysOffSampler() }), logRecordProcessors: [] }),
    instrumentations,
  });
  sdk.start();
  // Their own metrics are not wanted (metrics.ts): a no-op meter makes each request record nothing at
  // all, where the DROP views still let them build attributes and record into a dropped stream, a cost
  // a 1-message GET feels (docs/benchmarks.md, "Metrics cost").
  for (const instrumentation of instrumentations) instrumentation.setMeterProvider(NO_METRICS);
}

export async function stopTelemetry(): Promise<void> {
  await sdk?.shutdown();
  sdk = undefined;
}

export { traceIncomingRequests, nameServerSpan, type IncomingSpanOptions } from './http-server-span';
