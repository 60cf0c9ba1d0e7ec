import { createPrismaClient } from '@mapi/db';
import { createStorage } from '@mapi/storage';
import {
  AddressPolicy,
  NatsRpcClient,
  bindHandlers,
  connectNats,
  createLogger,
  loadConfig,
  natsIndicator,
  postgresIndicator,
  startRpcService,
} from '@mapi/platform';
import { loadImporterConfig } from './config';
import { IMPORTER_HANDLERS } from './importer.handlers';
import { FailureRepository } from './repositories/failure-repository';
import { IdMapRepository } from './repositories/id-map-repository';
import { ImportRunRepository } from './repositories/import-run-repository';
import { ImportLauncher } from './run/import-launcher';

/** Starts the importer: the imports RPCs and the runs they start; health on HEALTH_PORT. */
export async function bootstrapImporterService(): Promise<void> {
  const config = loadConfig(['app', 'database', 'nats', 'health', 'telemetry']);
  const own = loadImporterConfig();
  const ns = config.app.NAMESPACE;
  const logger = createLogger('importer', config.telemetry.LOG_LEVEL);
  const prisma = createPrismaClient({ url: config.database.DATABASE_URL, poolSize: config.database.DATABASE_POOL_SIZE });
  const nc = await connectNats(config.nats.NATS_URL, 'importer');
  const rpc = new NatsRpcClient(nc, ns, config.nats.RPC_TIMEOUT_MS);
  const launcher = new ImportLauncher({
    runs: new ImportRunRepository(prisma),
    idMap: new IdMapRepository(prisma),
    failures: new FailureRepository(prisma),
    rpc,
    policy: new AddressPolicy(own.IMPORT_SOURCE_ALLOW_CIDRS),
    media: own.IMPORT_MEDIA
      ? { storage: createStorage(own.storage), mediaBaseUrl: own.MEDIA_BASE_URL, maxBytes: own.IMPORT_MEDIA_MAX_BYTES }
      : null,
    logger,
  });
  await startRpcService({
    name: 'importer',
    nc,
    namespace: ns,
    logger,
    nodeEnv: config.app.NODE_ENV,
    rpc: { handlers: bindHandlers(IMPORTER_HANDLERS, { prisma, launcher, rpc }) },
    health: {
      host: config.health.HEALTH_HOST,
      port: config.health.HEALTH_PORT,
      indicators: [postgresIndicator(() => prisma.$queryRaw`SELECT 1`), natsIndicator(nc)],
    },
    stop: [() => launcher.drain(), () => rpc.close()],
    disconnect: [() => prisma.$disconnect()],
  });
}
