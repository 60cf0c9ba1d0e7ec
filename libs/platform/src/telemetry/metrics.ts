import type { IncomingMessage, ServerResponse } from 'node:http';
import { metrics, type Attributes, type Meter } from '@opentelemetry/api';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { AggregationType, type ViewOptions } from '@opentelemetry/sdk-metrics';
import { METER_NAME } from '@mapi/contracts';

export { DURATION_BUCKETS_S, METER_NAME } from '@mapi/contracts';

/** The meter every instrument of this project is created from (after startTelemetry, so it is the SDK's). */
export const meter = (): Meter => metrics.getMeter(METER_NAME);

/**
 * The instrumentation libraries' own metrics (HTTP client/server, pg, ioredis) are dropped: they cost
 * a service real CPU under load (docs/decisions/0051-metrics.md) and say less than ours, which
 * carry the route template, the RPC subject and the outcome.
 */
export const METRIC_VIEWS: ViewOptions[] = [
  '@opentelemetry/instrumentation-http',
  '@opentelemetry/instrumentation-pg',
  '@opentelemetry/instrumentation-ioredis',
].map((meterName) => ({ meterName, aggregation: { type: AggregationType.DROP } }));

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

/**
 * For observable gauges whose attribute sets come and go (a phone's queue, a session state): the
 * SDK keeps exporting an attribute set a callback no longer observes, with its last value
 * (cumulative temporality), so a drained queue would go on showing its last depth. This remembers
 * every set observed and adds a 0 for each one missing from the current points. The series stay
 * until the process restarts: their number is bounded by the sets ever observed (phones, states).
 */
export class GaugeSeries {
  private readonly seen = new Map<string, Attributes>();

  /** The points to observe: these, and 0 for every attribute set observed before and missing now. */
  withZeros(points: readonly (readonly [number, Attributes])[]): [number, Attributes][] {
    const current = new Map(points.map(([, attributes]) => [seriesKey(attributes), attributes]));
    const out: [number, Attributes][] = points.map(([value, attributes]) => [value, attributes]);
    for (const [key, attributes] of this.seen) if (!current.has(key)) out.push([0, attributes]);
    for (const [key, attributes] of current) this.seen.set(key, attributes);
    return out;
  }
}

const seriesKey = (attributes: Attributes) =>
  JSON.stringify(
    Object.entries(attributes)
      .map(([k, v]) => [k, String(v)])
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
