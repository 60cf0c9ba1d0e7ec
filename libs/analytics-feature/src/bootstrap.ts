import { chatCopiesInReach } from '@mapi/contracts';
import { createPrismaClient } from '@mapi/db';
import { consumersIndicator, ensureStreams } from '@mapi/events';
import {
  NatsRpcClient,
  bindHandlers,
  connectNats,
  createLogger,
  loadConfig,
  natsIndicator,
  postgresIndicator,
  startRpcService,
} from '@mapi/platform';
import { ANALYTICS_HANDLERS } from './analytics.handlers';
import { AnalyticsIntake } from './ingest/analytics-intake';

/**
 * Starts the analytics service: message metrics of an organization, fed from the event stream (the
 * durable consumer `analytics`, message events only); health and metrics on HEALTH_PORT.
 */
export async function bootstrapAnalyticsService(): Promise<void> {
  const config = loadConfig(['app', 'database', 'nats', 'health', 'telemetry']);
  const ns = config.app.NAMESPACE;
  const logger = createLogger('analytics', config.telemetry.LOG_LEVEL);
  const prisma = createPrismaClient({ url: config.database.DATABASE_URL, poolSize: config.database.DATABASE_POOL_SIZE });
  const nc = await connectNats(config.nats.NATS_URL, 'analytics');
  const rpc = new NatsRpcClient(nc, ns, config.nats.RPC_TIMEOUT_MS);
  await ensureStreams(nc, ns);
  const intake = new AnalyticsIntake(nc, ns, prisma, logger);
  await startRpcService({
    name: 'analytics',
    nc,
    namespace: ns,
    logger,
    nodeEnv: config.app.NODE_ENV,
    rpc: {
      handlers: bindHandlers(ANALYTICS_HANDLERS, { prisma, reach: (ctx, copies) => chatCopiesInReach(rpc, ctx, copies) }),
    },
    start: () => intake.start(),
    health: {
      host: config.health.HEALTH_HOST,
      port: config.health.HEALTH_PORT,
      indicators: [postgresIndicator(() => prisma.$queryRaw`SELECT 1`), natsIndicator(nc), consumersIndicator()],
    },
    stop: [() => intake.stop(), () => rpc.close()],
    disconnect: [() => prisma.$disconnect()],
  });
}
