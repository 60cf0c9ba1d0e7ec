import { createPrismaClient } from '@mapi/db';
import { consumersIndicator, ensureStreams } from '@mapi/events';
import {
  AddressPolicy,
  HttpSender,
  bindHandlers,
  connectNats,
  createLogger,
  loadConfig,
  natsIndicator,
  postgresIndicator,
  startRpcService,
} from '@mapi/platform';
import { Pool } from 'pg';
import { loadWebhooksConfig } from './config';
import { systemClock } from './delivery/clock';
import { DeliveryStore } from './delivery/delivery-store';
import { DeliveryWorker } from './delivery/delivery-worker';
import { EventIntake } from './delivery/event-intake';
import { RetentionSweeper } from './delivery/retention-sweeper';
import { DeliveryLogRepository } from './repositories/delivery-log-repository';
import { SubscriptionRepository } from './repositories/subscription-repository';
import { SinkSecrets } from './sinks/sink-secrets';
import { SinkSender } from './sinks/sink-sender';
import { WEBHOOKS_HANDLERS } from './webhooks.handlers';

/**
 * Starts the webhooks service: the subscription RPCs (queue group `webhooks`), the EVENTS intake
 * (durable consumer `webhooks-dispatcher`) and the delivery workers, as WEBHOOK_ROLES says; health on HEALTH_PORT.
 */
export async function bootstrapWebhooksService(): Promise<void> {
  const config = loadConfig(['app', 'database', 'nats', 'health', 'telemetry']);
  const wh = loadWebhooksConfig();
  const logger = createLogger('webhooks-dispatcher', config.telemetry.LOG_LEVEL);
  const prisma = createPrismaClient({ url: config.database.DATABASE_URL, poolSize: config.database.DATABASE_POOL_SIZE });
  const pool = new Pool({ connectionString: config.database.DATABASE_URL, max: config.database.DATABASE_POOL_SIZE });
  // A connection the server ends (Postgres restarted or crashed) is an 'error' event: on the pool for
  // an idle one (the pool drops it), on the client for one checked out between two queries (its next
  // query fails, and the pool drops it on release). Without listeners Node would end the process.
  pool.on('error', (err) => logger.warn({ err: err.message }, 'an idle database connection ended; the pool drops it'));
  pool.on('connect', (client) => client.on('error', (err) => logger.warn({ err: err.message }, 'a database connection in use ended')));
  const nc = await connectNats(config.nats.NATS_URL, 'webhooks-dispatcher');
  await ensureStreams(nc, config.app.NAMESPACE);
  const clock = systemClock;
  const store = new DeliveryStore(pool);
  const secrets = new SinkSecrets(wh.BAILEYS_AUTH_KEY ? Buffer.from(wh.BAILEYS_AUTH_KEY, 'base64') : null);
  // http(s) subscriptions are POSTed; event sinks go to their brokers, by the same address policy (decision 0087)
  const sender = new SinkSender(
    new HttpSender(new AddressPolicy(wh.WEBHOOK_ALLOW_CIDRS), wh.WEBHOOK_DELIVERY_TIMEOUT_MS, undefined, wh.WEBHOOK_CONCURRENCY),
    secrets,
    wh.WEBHOOK_DELIVERY_TIMEOUT_MS,
    logger,
  );
  const worker = wh.WEBHOOK_ROLES.includes('delivery')
    ? new DeliveryWorker(
        store,
        sender,
        clock,
        {
          concurrency: wh.WEBHOOK_CONCURRENCY,
          endpointLimits: { maxInFlight: wh.WEBHOOK_ENDPOINT_MAX_IN_FLIGHT, ratePerSecond: wh.WEBHOOK_ENDPOINT_RATE_PER_SECOND },
          leaseMs: wh.WEBHOOK_CLAIM_LEASE_MS,
          pollMs: wh.WEBHOOK_POLL_INTERVAL_MS,
          idlePollMs: wh.WEBHOOK_IDLE_POLL_INTERVAL_MS,
          claimBatch: wh.WEBHOOK_CLAIM_BATCH,
          flushMs: 10,
          schedule: wh.WEBHOOK_RETRY_SCHEDULE_MS,
          disableAfterMs: wh.WEBHOOK_DISABLE_AFTER_FAILING_MS,
        },
        logger,
      )
    : undefined;
  const wake = () => worker?.wake();

  const intake = wh.WEBHOOK_ROLES.includes('intake')
    ? new EventIntake(nc, config.app.NAMESPACE, store, clock, wake, logger, {
        batchSize: wh.WEBHOOK_INTAKE_BATCH,
        lingerMs: 10,
        ackWaitMs: wh.WEBHOOK_INTAKE_ACK_WAIT_MS,
      })
    : undefined;
  const sweeper = wh.WEBHOOK_ROLES.includes('delivery')
    ? new RetentionSweeper(
        pool,
        clock,
        { retentionMs: wh.WEBHOOK_RETENTION_MS, intervalMs: wh.WEBHOOK_RETENTION_SWEEP_INTERVAL_MS },
        logger,
      )
    : undefined;

  await startRpcService({
    name: 'webhooks',
    nc,
    namespace: config.app.NAMESPACE,
    logger,
    nodeEnv: config.app.NODE_ENV,
    // Without the api role this process answers no RPC; it still gets health and the ordered shutdown.
    rpc: wh.WEBHOOK_ROLES.includes('api')
      ? {
          handlers: bindHandlers(WEBHOOKS_HANDLERS, {
            prisma,
            subscriptions: new SubscriptionRepository(prisma),
            sinks: new SubscriptionRepository(prisma, 'sinks'),
            secrets,
            log: new DeliveryLogRepository(prisma),
            clock,
            onScheduled: wake,
            rotationOverlapMs: wh.WEBHOOK_SECRET_ROTATION_OVERLAP_MS,
          }),
        }
      : undefined,
    start: async () => {
      await intake?.start();
      worker?.start();
      sweeper?.start();
    },
    health: {
      host: config.health.HEALTH_HOST,
      port: config.health.HEALTH_PORT,
      indicators: [postgresIndicator(() => prisma.$queryRaw`SELECT 1`), natsIndicator(nc), consumersIndicator()],
    },
    readyFields: { roles: wh.WEBHOOK_ROLES },
    stop: [
      () => intake?.stop(), // what was gathered is scheduled and acked first
      () => worker?.stop(), // attempts under way finish and are recorded
      () => sweeper?.stop(),
      () => sender.close(),
    ],
    disconnect: [() => pool.end(), () => prisma.$disconnect()],
  });
}
