import { createPrismaClient } from '@mapi/db';
import { OutboxRelay, SessionCommands } from '@mapi/events';
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
import { GROUPS_HANDLERS } from './groups.handlers';

/** Starts the groups service: participant actions through the acting phone's session. */
export async function bootstrapGroupsService(): Promise<void> {
  const config = loadConfig(['app', 'database', 'nats', 'health', 'telemetry']);
  const ns = config.app.NAMESPACE;
  const logger = createLogger('groups', config.telemetry.LOG_LEVEL);
  const prisma = createPrismaClient({ url: config.database.DATABASE_URL, poolSize: config.database.DATABASE_POOL_SIZE });
  const nc = await connectNats(config.nats.NATS_URL, 'groups');
  const sessions = new SessionCommands(nc, ns, 10_000);
  const rpc = new NatsRpcClient(nc, ns, config.nats.RPC_TIMEOUT_MS);
  const relay = new OutboxRelay(prisma, nc, ns, logger, { listenUrl: directDatabaseUrl(config.database) });
  await startRpcService({
    name: 'groups',
    nc,
    namespace: ns,
    logger,
    nodeEnv: config.app.NODE_ENV,
    rpc: { handlers: bindHandlers(GROUPS_HANDLERS, { sessions, rpc, prisma }) },
    start: () => relay.start(),
    health: {
      host: config.health.HEALTH_HOST,
      port: config.health.HEALTH_PORT,
      indicators: [postgresIndicator(() => prisma.$queryRaw`SELECT 1`), natsIndicator(nc)],
    },
    stop: [() => relay.stop(), () => rpc.close()],
    disconnect: [() => prisma.$disconnect()],
  });
}
