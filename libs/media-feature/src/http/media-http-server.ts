import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { checkReadiness, type HealthIndicator, type Logger } from '@mapi/platform';
import type { MediaFileHandler } from './media-file-handler';

export interface MediaHttpServerOptions {
  /** `/app/media/` (plus the path of MEDIA_BASE_URL, if it has one). */
  servedPathPrefix: string;
  files: MediaFileHandler;
  indicators: readonly HealthIndicator[];
  isShuttingDown: () => boolean;
  logger: Logger;
}

const envelope = (status: number, code: string, message: string, extra: Record<string, unknown> = {}) => ({
  code,
  message,
  status,
  ...extra,
});

/**
 * The media app's own HTTP listener (MEDIA_HTTP_PORT): the file route, which is neither under /v1
 * nor JSON and so does not go through the gateway, and /health/live, /health/ready.
 */
export function buildMediaHttpServer(options: MediaHttpServerOptions): FastifyInstance {
  // Object names can be long; the default 100-character parameter limit would 404 them.
  const app = Fastify({ logger: false, maxParamLength: 16_384, return503OnClosing: true });
  app.route({ method: ['GET', 'HEAD'], url: `${options.servedPathPrefix}*`, exposeHeadRoute: false, handler: options.files.handle });
  app.get('/health/live', async () => ({ status: 'ok' }));
  app.get('/health/ready', async (_req, reply) => {
    if (options.isShuttingDown()) return reply.status(503).send({ status: 'error', checks: {}, shutting_down: true });
    const report = await checkReadiness(options.indicators);
    return reply.status(report.status === 'ok' ? 200 : 503).send(report);
  });
  app.setNotFoundHandler((_req, reply) => {
    reply
      .status(404)
      .header('Cache-Control', 'no-store')
      .send(envelope(404, 'NOT_FOUND_ERROR', 'No such file'));
  });
  app.setErrorHandler((error, req, reply) => {
    const status = (error as { statusCode?: number }).statusCode;
    if (status && status >= 400 && status < 500) {
      return reply
        .status(status)
        .header('Cache-Control', 'no-store')
        .send(envelope(status, 'ERROR', 'Bad request'));
    }
    const errorId = randomUUID();
    options.logger.error({ err: error, error_id: errorId, url: req.raw.url?.split('?')[0] }, 'media request failed');
    return reply
      .status(500)
      .header('Cache-Control', 'no-store')
      .send(envelope(500, 'UNKNOWN_ERROR', `Internal server error (error id ${errorId})`, { error_id: errorId }));
  });
  return app;
}
