import { chatCopiesInReach, chatCopiesWithLabel, countUnreadChats, tokenNames } from '@mapi/contracts';
import { createPrismaClient } from '@mapi/db';
import { OutboxRelay, consumersIndicator, ensureStreams } from '@mapi/events';
import {
  NatsRpcClient,
  bindHandlers,
  connectNats,
  createLogger,
  directDatabaseUrl,
  loadConfig,
  natsIndicator,
  postgresIndicator,
  startRpcService,
} from '@mapi/platform';
import { ANALYTICS_HANDLERS } from './analytics.handlers';
import { AnalyticsIntake } from './ingest/analytics-intake';
import { flaggingFromEnv } from './flagging/flagging-from-env';
import { slaTimersFromEnv } from './sla/sla-from-env';
import { retentionFromEnv } from './retention/retention-from-env';

/**
 * Starts the analytics service: message metrics of an organization, fed from the event stream (the
 * durable consumer `analytics`, message events only), and the SLA timers (durables `analytics-sla` and
 * `analytics-sla-labels`, the breach poller, an outbox relay for sla.breached), and flagging (durable
 * `analytics-flagging`, the flag worker calling chats.v1.message.flag), and the retention sweep of ended
 * flag jobs and closed SLA waits; health and metrics on HEALTH_PORT.
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
  // SLA timers (docs/decisions/0084): their breaches go through the outbox, published by this service's relay too
  const relay = new OutboxRelay(prisma, nc, ns, logger, { listenUrl: directDatabaseUrl(config.database) });
  const sla = slaTimersFromEnv(nc, ns, prisma, logger, directDatabaseUrl(config.database));
  // flagging (docs/decisions/0089): rules and the model flag messages through the chats service
  const flagging = flaggingFromEnv(nc, ns, prisma, rpc, logger, directDatabaseUrl(config.database));
  // ended flag jobs and closed SLA waits older than ANALYTICS_RETENTION_DAYS are deleted, by every replica
  const retention = retentionFromEnv(prisma, logger);
  await startRpcService({
    name: 'analytics',
    nc,
    namespace: ns,
    logger,
    nodeEnv: config.app.NODE_ENV,
    rpc: {
      handlers: bindHandlers(ANALYTICS_HANDLERS, {
        prisma,
        reach: (ctx, copies) => chatCopiesInReach(rpc, ctx, copies),
        labels: (ctx, copies, label) => chatCopiesWithLabel(rpc, ctx, copies, label),
        unread: (ctx, phoneId) => countUnreadChats(rpc, ctx, phoneId),
        tokenNames: (ctx, keys) => tokenNames(rpc, ctx, keys),
        modelOn: flagging.modelOn,
      }),
    },
    start: async () => {
      await intake.start();
      await relay.start();
      await sla.intake.start();
      await sla.poller.start();
      await flagging.intake.start();
      await flagging.worker.start();
      retention.start();
    },
    health: {
      host: config.health.HEALTH_HOST,
      port: config.health.HEALTH_PORT,
      indicators: [postgresIndicator(() => prisma.$queryRaw`SELECT 1`), natsIndicator(nc), consumersIndicator()],
    },
    stop: [
      () => retention.stop(),
      () => flagging.worker.stop(),
      () => flagging.intake.stop(),
      () => sla.poller.stop(),
      () => sla.intake.stop(),
      () => relay.stop(),
      () => intake.stop(),
      () => rpc.close(),
    ],
    disconnect: [() => prisma.$disconnect()],
  });
}
