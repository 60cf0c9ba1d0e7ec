import { createServer, type Server } from 'node:http';
import { serveMetrics } from '../telemetry/metrics';

/** One dependency a process needs to serve: readiness fails while any check fails. */
export interface HealthIndicator {
  name: string;
  check(): Promise<void>;
}

export interface HealthReport {
  status: 'ok' | 'error';
  checks: Record<string, { status: 'up' | 'down'; error?: string; latency_ms: number }>;
}

const withTimeout = <T>(p: Promise<T>, ms: number) =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms).unref())]);

export async function checkReadiness(indicators: readonly HealthIndicator[], timeoutMs = 2_000): Promise<HealthReport> {
  const checks: HealthReport['checks'] = {};
  await Promise.all(
    indicators.map(async (indicator) => {
      const started = performance.now();
      try {
        await withTimeout(indicator.check(), timeoutMs);
        checks[indicator.name] = { status: 'up', latency_ms: Math.round(performance.now() - started) };
      } catch (error) {
        checks[indicator.name] = { status: 'down', error: (error as Error).message, latency_ms: Math.round(performance.now() - started) };
      }
    }),
  );
  return { status: Object.values(checks).every((c) => c.status === 'up') ? 'ok' : 'error', checks };
}

/**
 * A small HTTP server for processes that serve no HTTP of their own: GET /health/live answers 200
 * while the process runs; GET /health/ready answers 200 only while every dependency answers.
 * GET /metrics answers the process's metrics in Prometheus's text format (telemetry/metrics.ts).
 */
export function startHealthServer(options: {
  host: string;
  port: number;
  indicators: readonly HealthIndicator[];
  isShuttingDown?: () => boolean;
}): Promise<Server> {
  const server = createServer(async (req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.url === '/health/live') return send(200, { status: 'ok' });
    if (req.url === '/health/ready') {
      if (options.isShuttingDown?.()) return send(503, { status: 'error', checks: {}, shutting_down: true });
      const report = await checkReadiness(options.indicators);
      return send(report.status === 'ok' ? 200 : 503, report);
    }
    const path = (req.url ?? '').split('?')[0];
    if (req.method === 'GET' && path === '/metrics') return serveMetrics(req, res);
    send(404, { status: 'error' });
  });
  return new Promise((resolve) => server.listen(options.port, options.host, () => resolve(server)));
}
