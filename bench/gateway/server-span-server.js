'use strict';
/**
 * One variant of bench/gateway/server-span-cost.js: a Fastify server whose request hook reads the active
 * span (as the gateway's does for x-service-trace-id) and whose handler answers a small JSON after an
 * await, with OpenTelemetry started as the api-gateway starts it. SPAN_MODE=instrumentation: the http
 * instrumentation makes the server span (the base commit); SPAN_MODE=own: traceIncomingRequests does.
 */
const { startTelemetry, traceIncomingRequests } = require('@mapi/platform/telemetry');
const own = process.env.SPAN_MODE === 'own';
startTelemetry('span-bench', own ? { incomingHttpSpans: false } : {});
const { trace } = require('@opentelemetry/api');
const fastify = require('fastify')({ logger: false });

fastify.addHook('onRequest', (req, reply, done) => {
  const span = trace.getActiveSpan();
  if (span) reply.header('x-service-trace-id', span.spanContext().traceId);
  done();
});
fastify.get('/v1/things/:id', async (req) => {
  await Promise.resolve();
  return { id: req.params.id, trace: trace.getActiveSpan()?.spanContext().traceId ?? null };
});
fastify.ready().then(() => {
  if (own) traceIncomingRequests(fastify.server, { ignore: (url) => url.startsWith('/health') });
  fastify.listen({ port: Number(process.env.PORT), host: '127.0.0.1' }).then(() => process.send?.('ready'));
});
