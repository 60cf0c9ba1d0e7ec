import { PhoneDirectoryRpc } from '@mapi/contracts';
import { createPrismaClient } from '@mapi/db';
import { OutboxRelay, SessionCommands, consumersIndicator, ensureStreams } from '@mapi/events';
import {
  NatsRpcClient,
  bindHandlers,
  connectNats,
  createLogger,
  loadConfig,
  natsIndicator,
  postgresIndicator,
  startRpcService,
  directDatabaseUrl,
} from '@mapi/platform';
import { CHATS_HANDLERS } from './chats.handlers';
import { ApplyIngest } from './ingest/apply-ingest.usecase';
import { createIngestConsumer } from './ingest/ingest-consumer';

/** Starts the chats service: answers its NATS subjects in the `chats` queue group; health on HEALTH_PORT. */
export async function bootstrapChatsService(): Promise<void> {
  const config = loadConfig(['app', 'database', 'nats', 'health', 'telemetry']);
  const logger = createLogger('chats', config.telemetry.LOG_LEVEL);
  const prisma = createPrismaClient({ url: config.database.DATABASE_URL, poolSize: config.database.DATABASE_POOL_SIZE });
  const nc = await connectNats(config.nats.NATS_URL, 'chats');
  await ensureStreams(nc, config.app.NAMESPACE);
  const rpc = new NatsRpcClient(nc, config.app.NAMESPACE, config.nats.RPC_TIMEOUT_MS);
  const sessions = new SessionCommands(nc, config.app.NAMESPACE, 10_000);
  const relay = new OutboxRelay(prisma, nc, config.app.NAMESPACE, logger, { listenUrl: directDatabaseUrl(config.database) });
  const ingest = createIngestConsumer(nc, config.app.NAMESPACE, new ApplyIngest(prisma, () => relay.kick()), logger);
  await startRpcService({
    name: 'chats',
    nc,
    namespace: config.app.NAMESPACE,
    logger,
    nodeEnv: config.app.NODE_ENV,
    rpc: {
      handlers: bindHandlers(CHATS_HANDLERS, { prisma, phoneDirectory: (request) => rpc.call(PhoneDirectoryRpc, request), sessions }),
    },
    start: async () => {
      await relay.start();
      await ingest.start();
    },
    health: {
      host: config.health.HEALTH_HOST,
      port: config.health.HEALTH_PORT,
      indicators: [postgresIndicator(() => prisma.$queryRaw`SELECT 1`), natsIndicator(nc), consumersIndicator()],
    },
    stop: [
      () => ingest.stop(), // the batch under way is applied and acknowledged first
      () => relay.stop(),
      () => rpc.close(),
    ],
    disconnect: [() => prisma.$disconnect()],
  });
}
