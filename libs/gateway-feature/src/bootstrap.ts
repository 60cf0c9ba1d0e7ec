import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { PinoNestLogger, createLogger, loadConfig, onShutdownSignal } from '@mapi/platform';
import { GatewayRuntime } from './gateway-runtime';
import { EnvelopeExceptionFilter } from './http/envelope-filter';
import { registerGatewayRoutes } from './http/route-registrar';

@Module({})
class GatewayModule {}

const VERSION = '1.0.0';

/** Starts the API gateway: Fastify on PORT (8080), every route under /v1. */
export async function bootstrapGateway(): Promise<NestFastifyApplication> {
  const config = loadConfig(['app', 'database', 'redis', 'nats', 'http', 'rateLimit', 'auth', 'telemetry']);
  const logger = createLogger('api-gateway', config.telemetry.LOG_LEVEL);
  const runtime = await GatewayRuntime.open(config, logger);
  let shuttingDown = false;

  const adapter = new FastifyAdapter({ bodyLimit: config.http.BODY_LIMIT_BYTES, trustProxy: true, logger: false });
  // bodyParser off: registerJsonBodyParser installs the JSON parser (empty body allowed, 422 on malformed).
  const app = await NestFactory.create<NestFastifyApplication>(GatewayModule, adapter, { logger: new PinoNestLogger(logger), bodyParser: false });
  app.useGlobalFilters(new EnvelopeExceptionFilter(logger));
  registerGatewayRoutes(app.getHttpAdapter().getInstance(), {
    auth: runtime.authenticator,
    phones: runtime.phoneResolver,
    rateLimiter: runtime.rateLimiter,
    rpc: runtime.rpc,
    logger,
    defaultRatePerSecond: config.rateLimit.RATE_LIMIT_PER_SECOND,
    routeRates: config.rateLimit.RATE_LIMIT_ROUTES,
    indicators: runtime.indicators,
    publicBaseUrl: config.http.PUBLIC_BASE_URL ?? `http://localhost:${config.http.PORT}`,
    version: VERSION,
    isShuttingDown: () => shuttingDown,
  });
  await app.listen(config.http.PORT, config.http.HOST);
  logger.info({ port: config.http.PORT }, 'api-gateway listening');

  onShutdownSignal(logger, async () => {
    shuttingDown = true;
    await app.close(); // stops accepting, lets in-flight requests finish
    await runtime.close();
  });
  return app;
}
