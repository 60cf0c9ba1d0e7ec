import type { AddressInfo } from 'node:net';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import multipart from '@fastify/multipart';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ROUTES, chatCopiesInReach, type RouteContract } from '@mapi/contracts';
import {
  PinoNestLogger,
  createLogger,
  loadConfig,
  onShutdownSignal,
  parseConfig,
  startHealthServer,
  traceIncomingRequests,
  type Logger,
} from '@mapi/platform';
import { startRealtime } from '@mapi/realtime-feature';
import { GatewayRuntime, type GatewayConfig } from './gateway-runtime';
import { registerCompression } from './http/compression';
import { EnvelopeExceptionFilter } from './http/envelope-filter';
import { toServiceError } from './http/error-mapping';
import { registerGatewayRoutes } from './http/route-registrar';
import { loadUploadConfig } from './upload/upload-config';
import { ConsoleAuthConfigSchema } from './rate-limit/sign-in-throttle';
import { TrustProxyConfigSchema, trustProxyOption } from './http/trust-proxy-config';

@Module({})
class GatewayModule {}

const VERSION = '1.0.0';

export interface GatewayApp {
  app: NestFastifyApplication;
  runtime: GatewayRuntime;
  /** Readiness answers 503 from now on (set when shutdown starts). */
  markShuttingDown(): void;
  isShuttingDown(): boolean;
}

/** Builds the gateway (not yet listening) on an open runtime: every route of `routes` under /v1. */
export async function createGatewayApp(runtime: GatewayRuntime, routes: readonly RouteContract[] = ROUTES): Promise<GatewayApp> {
  const { config, logger } = runtime;
  let shuttingDown = false;
  // frameworkErrors: the router's refusals (a too-long path parameter, a malformed URL) never reach
  // Nest's filter; they get the envelope here too.
  const adapter = new FastifyAdapter({
    bodyLimit: config.http.BODY_LIMIT_BYTES,
    // The client address is the first hop not of our own proxies (TRUST_PROXY_*): never simply the
    // leftmost X-Forwarded-For entry, which the client writes (the sign-in throttle counts per address).
    trustProxy: trustProxyOption(config.proxy),
    logger: false,
    frameworkErrors: (error: Error, _req: FastifyRequest, reply: FastifyReply) => {
      const envelope = toServiceError(error, logger);
      void reply.status(envelope.status).header('content-type', 'application/json; charset=utf-8').send(envelope.toEnvelope());
    },
  });
  // bodyParser off: registerJsonBodyParser installs the JSON parser (empty body allowed, 422 on malformed).
  const app = await NestFactory.create<NestFastifyApplication>(GatewayModule, adapter, {
    logger: new PinoNestLogger(logger),
    bodyParser: false,
  });
  app.useGlobalFilters(new EnvelopeExceptionFilter(logger));
  const fastify = app.getHttpAdapter().getInstance();
  // multipart/form-data for the routes whose contract has `upload` (others answer 415); the file size
  // limit is given per request (route-handler / multipart-body).
  await fastify.register(multipart, { throwFileSizeLimit: true });
  // before the routes: the plugin hooks into each route as it is added
  await registerCompression(fastify);
  // A request under way when shutdown starts is answered, then its keep-alive connection closes:
  // the server's close() reaps only connections idle when it is called, so one that becomes idle
  // later would hold it open until keepAliveTimeout (past the shutdown deadline).
  // (callback style, as the other per-request hooks: an async hook costs a promise per request)
  fastify.addHook('onSend', (_req, reply, payload, done) => {
    if (shuttingDown) void reply.header('connection', 'close');
    done(null, payload);
  });
  registerGatewayRoutes(fastify, {
    routes,
    auth: runtime.authenticator,
    phones: runtime.phoneResolver,
    rateLimiter: runtime.rateLimiter,
    rpc: runtime.rpc,
    logger,
    defaultRatePerSecond: config.rateLimit.RATE_LIMIT_PER_SECOND,
    routeRates: config.rateLimit.RATE_LIMIT_ROUTES,
    maxUploadFileBytes: config.upload.UPLOAD_MAX_FILE_BYTES,
    unavailableRetryAfterSeconds: Math.max(1, Math.ceil(config.nats.RPC_UNAVAILABLE_RETRY_MS / 1000)),
    signInThrottle: runtime.signInThrottle,
    cookies: { secure: config.console.SESSION_COOKIE_SECURE },
    bodyLimit: config.http.BODY_LIMIT_BYTES,
    indicators: runtime.indicators,
    publicBaseUrl: config.http.PUBLIC_BASE_URL ?? `http://localhost:${config.http.PORT}`,
    version: VERSION,
    isShuttingDown: () => shuttingDown,
  });
  return { app, runtime, markShuttingDown: () => (shuttingDown = true), isShuttingDown: () => shuttingDown };
}

export function loadGatewayConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  return {
    ...loadConfig(['app', 'database', 'redis', 'nats', 'http', 'health', 'rateLimit', 'auth', 'telemetry'], env),
    upload: loadUploadConfig(env),
    console: parseConfig(ConsoleAuthConfigSchema, env),
    proxy: parseConfig(TrustProxyConfigSchema, env),
  };
}

/** Starts the API gateway: Fastify on PORT (8080), every route under /v1. */
export async function bootstrapGateway(): Promise<NestFastifyApplication> {
  const config = loadGatewayConfig();
  const logger: Logger = createLogger('api-gateway', config.telemetry.LOG_LEVEL);
  const runtime = await GatewayRuntime.open(config, logger);
  const gateway = await createGatewayApp(runtime);
  // socket.io (realtime events, docs/services/realtime.md) shares the gateway's port and checks.
  const realtime = await startRealtime(gateway.app.getHttpServer(), {
    auth: runtime.authenticator,
    phones: runtime.phoneResolver,
    nc: runtime.nc,
    namespace: config.app.NAMESPACE,
    logger,
    copiesInReach: (ctx, copies) => chatCopiesInReach(runtime.rpc, ctx, copies),
  });
  // one server span per request, the caller's traceparent followed (instrument.ts turned the http
  // instrumentation's off); after startRealtime, so socket.io's requests have theirs too
  traceIncomingRequests(gateway.app.getHttpServer(), { ignore: (url) => url.startsWith('/health') });
  await gateway.app.listen(config.http.PORT, config.http.HOST);
  // GET /metrics (and the health checks) on HEALTH_PORT, like every other app, not on the public API port
  const health = await startHealthServer({
    host: config.health.HEALTH_HOST,
    port: config.health.HEALTH_PORT,
    indicators: runtime.indicators,
    isShuttingDown: gateway.isShuttingDown,
  });
  logger.info({ port: config.http.PORT, health_port: (health.address() as AddressInfo).port }, 'api-gateway listening');

  onShutdownSignal(logger, async () => {
    gateway.markShuttingDown();
    await realtime.close(); // sockets reconnect to another replica; their connections would hold the server open
    await gateway.app.close(); // stops accepting, lets in-flight requests finish
    await runtime.close();
    await new Promise((resolve) => health.close(resolve));
  });
  return gateway.app;
}
