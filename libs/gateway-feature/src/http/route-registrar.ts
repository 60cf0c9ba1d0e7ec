import { METRICS, buildOpenApi, metricOptions, toRouterPath, type RouteContract } from '@mapi/contracts';
import { DURATION_BUCKETS_S, checkReadiness, meter, nameServerSpan, type HealthIndicator } from '@mapi/platform';
import { trace } from '@opentelemetry/api';
import type { FastifyInstance } from 'fastify';
import { REFERENCE_PAGE } from '../openapi/reference-page';
import { uploadJsonBodyLimit } from '../upload/upload-config';
import { registerJsonBodyParser } from './json-body-parser';
import { createRouteHandler, type RouteHandlerDeps } from './route-handler';

export const API_PREFIX = '/v1';

export interface RegistrarOptions extends RouteHandlerDeps {
  routes: readonly RouteContract[];
  indicators: readonly HealthIndicator[];
  publicBaseUrl: string;
  version: string;
  isShuttingDown: () => boolean;
  /** The global JSON body limit (BODY_LIMIT_BYTES); upload routes take a file's worth of base64 more. */
  bodyLimit: number;
}

/** Puts every contract route, the OpenAPI document, the reference page and the health checks on Fastify. */
export function registerGatewayRoutes(fastify: FastifyInstance, options: RegistrarOptions): void {
  registerJsonBodyParser(fastify);

  // The per-request hooks take a callback: an async hook costs a promise (and its async-hooks
  // context) per request for nothing here.
  fastify.addHook('onRequest', (req, reply, done) => {
    const span = trace.getActiveSpan();
    if (span) reply.header('x-service-trace-id', span.spanContext().traceId);
    (req as { startedAt?: number }).startedAt = performance.now();
    done();
  });
  // http.server.request.duration (OpenTelemetry HTTP conventions): by method, route template (never
  // the raw path: an unmatched request has no http.route) and status.
  const duration = meter().createHistogram(METRICS.httpServerRequestDuration.name, {
    ...metricOptions(METRICS.httpServerRequestDuration),
    advice: { explicitBucketBoundaries: DURATION_BUCKETS_S },
  });
  // The access line's fields are fixed (method, path, status, ms, org id): none can hold a credential,
  // so it skips the logger's redaction, whose wildcard paths (`*.token`, …) pass every value of a line
  // through a slower serializer, a large part of a warm line's cost (docs/benchmarks.md, "Gateway fixed cost per request").
  const accessLog = options.logger.child({}, { redact: { paths: [] } });
  fastify.addHook('onResponse', (req, reply, done) => {
    if (req.url.startsWith('/health')) return done();
    const started = (req as { startedAt?: number }).startedAt ?? performance.now();
    const ms = performance.now() - started;
    accessLog.info(
      {
        method: req.method,
        url: req.url.split('?')[0],
        status: reply.statusCode,
        ms: Math.round(ms),
        org_id: reply.getHeader('x-service-org-id'),
      },
      'request',
    );
    const route = req.routeOptions.url;
    nameServerSpan(req.method, route);
    duration.record(ms / 1000, {
      'http.request.method': req.method,
      'http.response.status_code': reply.statusCode,
      ...(route ? { 'http.route': route } : {}),
    });
    done();
  });

  for (const route of options.routes) {
    fastify.route({
      method: route.method,
      url: API_PREFIX + toRouterPath(route.path),
      bodyLimit: route.upload ? uploadJsonBodyLimit(options.maxUploadFileBytes, options.bodyLimit) : undefined,
      handler: createRouteHandler(route, options),
    });
  }

  const openapi = JSON.stringify(buildOpenApi(options.routes, { serverUrl: options.publicBaseUrl + API_PREFIX, version: options.version }));
  fastify.get(`${API_PREFIX}/openapi.json`, async (_req, reply) => reply.type('application/json; charset=utf-8').send(openapi));
  fastify.get(`${API_PREFIX}/docs`, async (_req, reply) => reply.type('text/html; charset=utf-8').send(REFERENCE_PAGE));

  fastify.get('/health/live', async () => ({ status: 'ok' }));
  fastify.get('/health/ready', async (_req, reply) => {
    if (options.isShuttingDown()) return reply.status(503).send({ status: 'error', checks: {}, shutting_down: true });
    const report = await checkReadiness(options.indicators);
    return reply.status(report.status === 'ok' ? 200 : 503).send(report);
  });
}
