import { createPrismaClient } from '@mapi/db';
import { OutboxRelay } from '@mapi/events';
import { NatsRpcClient, bindHandlers, connectNats, createLogger, loadConfig, natsIndicator, postgresIndicator, startRpcService } from '@mapi/platform';
import { AUTOMATION_HANDLERS } from './automation.handlers';

/** Starts the automation service: workflow routes, the event intake and the step executor; health on HEALTH_PORT. */
export async function bootstrapAutomationService(): Promise<void> {
  const config = loadConfig(['app', 'database', 'nats', 'health', 'telemetry']);
  const ns = config.app.NAMESPACE;
  const logger = createLogger('automation', config.telemetry.LOG_LEVEL);
  const prisma = createPrismaClient({ url: config.database.DATABASE_URL, poolSize: config.database.DATABASE_POOL_SIZE });
  const nc = await connectNats(config.nats.NATS_URL, 'automation');
  const rpc = new NatsRpcClient(nc, ns, config.nats.RPC_TIMEOUT_MS);
  const relay = new OutboxRelay(prisma, nc, ns, logger, { listenUrl: config.database.DATABASE_URL });
  await startRpcService({
    name: 'automation',
    nc,
    namespace: ns,
    logger,
    nodeEnv: config.app.NODE_ENV,
    rpc: { handlers: bindHandlers(AUTOMATION_HANDLERS, { prisma }) },
    start: async () => {
      await relay.start();
    },
    health: {
      host: config.health.HEALTH_HOST,
      port: config.health.HEALTH_PORT,
      indicators: [postgresIndicator(() => prisma.$queryRaw`SELECT 1`), natsIndicator(nc)],
    },
    stop: [() => relay.stop(), () => rpc.close()],
    disconnect: [() => prisma.$disconnect()],
  });
}
