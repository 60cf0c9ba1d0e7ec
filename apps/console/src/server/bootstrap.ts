import { join } from 'node:path';
import { createLogger, loadConfig, onShutdownSignal, startHealthServer, type HealthIndicator } from '@mapi/platform';
import { loadConsoleConfig } from '../config';
import { loadAssets } from './assets';
import { createConsoleServer } from './console-server';

/** socket.io's long polls last 25 s; a request that waits longer than this for the gateway gets 502. */
const PROXY_TIMEOUT_MS = 60_000;

/**
 * Starts the console server: the built web app (dist/web) under /console/, /v1 and the realtime
 * socket forwarded to CONSOLE_GATEWAY_URL, /app/media to CONSOLE_MEDIA_URL when set, health and
 * metrics on HEALTH_PORT.
 */
export async function bootstrapConsole(webDir = join(__dirname, '..', 'web')): Promise<void> {
  const config = loadConfig(['http', 'health', 'telemetry']);
  const own = loadConsoleConfig();
  const logger = createLogger('console', config.telemetry.LOG_LEVEL);
  const assets = loadAssets(webDir);
  const server = createConsoleServer({
    assets,
    gateway: { base: new URL(own.CONSOLE_GATEWAY_URL), timeoutMs: PROXY_TIMEOUT_MS },
    media: own.CONSOLE_MEDIA_URL ? { base: new URL(own.CONSOLE_MEDIA_URL), timeoutMs: PROXY_TIMEOUT_MS } : undefined,
  });
  let shuttingDown = false;
  // Ready once listening: the pages are in memory. The gateway is not a dependency of readiness
  // (the console still serves its pages, and says so, while the gateway restarts).
  const listening: HealthIndicator = {
    name: 'http',
    check: async () => void (server.listening || Promise.reject(new Error('not listening'))),
  };
  const health = await startHealthServer({
    host: config.health.HEALTH_HOST,
    port: config.health.HEALTH_PORT,
    indicators: [listening],
    isShuttingDown: () => shuttingDown,
  });
  await new Promise<void>((resolve) => server.listen(config.http.PORT, config.http.HOST, resolve));
  logger.info({ port: config.http.PORT, gateway: own.CONSOLE_GATEWAY_URL, files: assets.size }, 'console listening');
  onShutdownSignal(logger, async () => {
    shuttingDown = true;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
      // Open websockets and long polls do not end by themselves: the browser reconnects elsewhere.
      setTimeout(() => server.closeAllConnections(), 2_000).unref();
    });
    await new Promise<void>((resolve) => health.close(() => resolve()));
  });
}
