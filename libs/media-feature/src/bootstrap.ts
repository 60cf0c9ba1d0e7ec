import { createPrismaClient } from '@mapi/db';
import {
  bindHandlers,
  connectNats,
  createLogger,
  listenRpcServer,
  loadConfig,
  natsIndicator,
  onShutdownSignal,
  postgresIndicator,
  startHealthServer,
} from '@mapi/platform';
import { createStorage, type ObjectStorage } from '@mapi/storage';
import { loadMediaConfig, type MediaConfig } from './config';
import { buildMediaHttpServer } from './http/media-http-server';
import { MediaFileHandler } from './http/media-file-handler';
import { PublicFiles } from './http/public-files';
import { MediaLinkMigrator } from './links/media-link-migrator';
import { MediaLinks } from './links/media-links';
import { MEDIA_HANDLERS } from './media.handlers';
import { MediaSettingsRepository } from './repositories/media-settings-repository';
import { PublicObjectRepository } from './repositories/public-object-repository';
import { MediaTokenService } from './tokens/media-token-service';

export const storageIndicator = (storage: ObjectStorage) => ({ name: 'storage', check: () => storage.check() });

export function mediaLinksFrom(config: MediaConfig): MediaLinks {
  return new MediaLinks({
    mediaBaseUrl: config.MEDIA_BASE_URL,
    legacyStorageUrl: config.MEDIA_LEGACY_STORAGE_URL,
    buckets: config.MEDIA_BUCKETS,
  });
}

/**
 * Starts the media service: answers media.v1.* over NATS (queue group `media`) and serves files,
 * /health/live and /health/ready on MEDIA_HTTP_PORT; /metrics (and the health checks again) on
 * HEALTH_PORT, like every other app, so metrics never leave through the public port.
 */
export async function bootstrapMediaService(): Promise<void> {
  const config = loadConfig(['app', 'database', 'nats', 'health', 'telemetry']);
  const media = loadMediaConfig();
  const logger = createLogger('media', config.telemetry.LOG_LEVEL);
  const prisma = createPrismaClient({ url: config.database.DATABASE_URL, poolSize: config.database.DATABASE_POOL_SIZE });
  const storage = createStorage(media.storage);
  const links = mediaLinksFrom(media);
  const tokens = new MediaTokenService(media.signingKeys);
  const publicObjects = new PublicObjectRepository(prisma);
  const migrator = new MediaLinkMigrator(links, new MediaSettingsRepository(prisma));

  const nc = await connectNats(config.nats.NATS_URL, 'media');
  // Not startRpcService: the media HTTP server serves the health routes (with the files), and closes
  // before NATS drains so that downloads under way finish.
  const rpc = await listenRpcServer({
    nc,
    namespace: config.app.NAMESPACE,
    logger,
    nodeEnv: config.app.NODE_ENV,
    handlers: bindHandlers(MEDIA_HANDLERS, { migrator, tokens, publicObjects }),
  });

  let shuttingDown = false;
  const indicators = [postgresIndicator(() => prisma.$queryRaw`SELECT 1`), natsIndicator(nc), storageIndicator(storage)];
  const http = buildMediaHttpServer({
    servedPathPrefix: links.servedPathPrefix,
    files: new MediaFileHandler({
      links,
      tokens,
      storage,
      publicFiles: new PublicFiles(publicObjects),
      publicMaxAgeSeconds: media.MEDIA_PUBLIC_MAX_AGE_SECONDS,
      privateMaxAgeSeconds: media.MEDIA_PRIVATE_MAX_AGE_SECONDS,
    }),
    indicators,
    isShuttingDown: () => shuttingDown,
    logger,
  });
  await http.listen({ host: media.MEDIA_HTTP_HOST, port: media.MEDIA_HTTP_PORT });
  const health = await startHealthServer({
    host: config.health.HEALTH_HOST,
    port: config.health.HEALTH_PORT,
    indicators,
    isShuttingDown: () => shuttingDown,
  });
  const healthAddress = health.address();
  logger.info(
    {
      port: media.MEDIA_HTTP_PORT,
      health_port: typeof healthAddress === 'object' && healthAddress ? healthAddress.port : null,
      base_url: media.MEDIA_BASE_URL,
      storage: storage.kind,
      buckets: media.MEDIA_BUCKETS,
    },
    'media service ready',
  );

  onShutdownSignal(logger, async () => {
    shuttingDown = true;
    await rpc.close();
    await http.close(); // finishes downloads under way
    await nc.drain().catch(() => undefined);
    await prisma.$disconnect();
    await new Promise((resolve) => health.close(resolve)); // last: liveness answers until the process exits
  });
}
