import type { IncomingMessage, ServerResponse } from 'node:http';
import { metrics, type Meter } from '@opentelemetry/api';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { AggregationType, type ViewOptions } from '@opentelemetry/sdk-metrics';

/** The meter every instrument of this project is created from (after startTelemetry, so it is the SDK's). */
export const METER_NAME = 'mapi';
export const meter = (): Meter => metrics.getMeter(METER_NAME);

/** Bucket bounds, in seconds, for every duration histogram (request, RPC, lag): 5 ms to 60 s. */
export const DURATION_BUCKETS_S = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/**
 * The instrumentation libraries' own metrics (HTTP client/server, pg, ioredis) are dropped: they cost
 * 5–10 % of a service's CPU under load (docs/decisions.md, "Metrics") and say less than ours, which
 * carry the route template, the RPC subject and the outcome.
 */
export const METRIC_VIEWS: ViewOptions[] = ['@opentelemetry/instrumentation-http', '@opentelemetry/instrumentation-pg', '@opentelemetry/instrumentation-ioredis'].map(
  (meterName) => ({ meterName, aggregation: { type: AggregationType.DROP } }),
);

let exporter: PrometheusExporter | undefined;

/**
 * The metric reader: Prometheus's text format, pulled (nothing is computed or sent between scrapes,
 * so an idle process stays idle). Served by each process's health server at GET /metrics.
 */
export function createPrometheusReader(): PrometheusExporter {
  exporter = new PrometheusExporter({ preventServerStart: true, withoutScopeInfo: true });
  return exporter;
}

/** GET /metrics: the Prometheus text of this process (404 when telemetry was not started, e.g. in-process tests). */
export function serveMetrics(req: IncomingMessage, res: ServerResponse): void {
  if (!exporter) {
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ status: 'error', error: 'metrics are not collected in this process' }));
    return;
  }
  exporter.getMetricsRequestHandler(req, res);
}

/** For tests: forget the reader (the next createPrometheusReader replaces it). */
export function resetMetricsReader(): void {
  exporter = undefined;
}
