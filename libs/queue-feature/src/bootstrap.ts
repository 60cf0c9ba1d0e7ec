import { Redis } from 'ioredis';
import { createPrismaClient } from '@mapi/db';
import { ChoosePhoneRpc, PhoneDirectoryRpc } from '@mapi/contracts';
import { SessionCommands } from '@mapi/events';
import {
  NatsRpcClient,
  bindHandlers,
  bullConnection,
  connectNats,
  createLogger,
  loadConfig,
  natsIndicator,
  outageLog,
  postgresIndicator,
  redisIndicator,
  startRpcService,
} from '@mapi/platform';
import { loadQueueConfig, type QueueConfig } from './config';
import { IdempotencyStore } from './idempotency/idempotency-store';
import { QueueDepthGauge } from './metrics/queue-depth-gauge';
import { registerQueueDepthMetrics } from './metrics/queue-depth-metrics';
import { PhoneGate } from './phones/phone-gate';
import { QUEUE_HANDLERS, type QueueDeps } from './queue.handlers';
import { QueuePurger } from './queues/queue-purger';
import { SendQueues } from './queues/send-queues';
import { QueueRebuild } from './record/queue-rebuild';
import { SendRecord } from './record/send-record';
import { jobsReachOverRpc, sendReachOverRpc } from './phones/member-reach';
import type { ChoosePhone } from './usecases/send-message/send-message.usecase';
import { PhonePaces } from './worker/phone-pace';
import { SendProcessor } from './worker/send-processor';
import { SendWorkers } from './worker/send-workers';

const queuesOptions = (namespace: string, q: QueueConfig, record: SendRecord) => ({
  namespace,
  attempts: q.QUEUE_SEND_ATTEMPTS,
  backoffMs: q.QUEUE_RETRY_BACKOFF_MS,
  keepFinishedSeconds: q.QUEUE_KEEP_FINISHED_S,
  record,
});

/**
 * Starts the queue service: answers queue.v1.* in the `queue` queue group, and (unless
 * QUEUE_WORKER_ENABLED=false) runs the send workers of every phone queue. Health, and the queue's
 * depth (overall and per phone) among the metrics, on HEALTH_PORT.
 */
export async function bootstrapQueueService(): Promise<void> {
  const config = loadConfig(['app', 'database', 'redis', 'nats', 'health', 'telemetry']);
  const q = loadQueueConfig();
  const logger = createLogger('queue', config.telemetry.LOG_LEVEL);
  const namespace = config.app.NAMESPACE;
  // Fails fast while Redis is away (no offline queue, no retries of a command under way): a request
  // answers 503 at once instead of waiting out the outage; the workers have connections of their own.
  const redis = new Redis(config.redis.REDIS_URL, { maxRetriesPerRequest: 0, enableOfflineQueue: false, lazyConnect: true });
  redis.on('error', (err) => outageLog(logger).warn('redis connection error', { err: err.message }));
  await redis.connect().catch((err) => logger.warn({ err: err.message }, 'redis not reachable at start; will retry'));
  const nc = await connectNats(config.nats.NATS_URL, 'queue');
  const sessions = new SessionCommands(nc, namespace, q.QUEUE_SESSION_TIMEOUT_MS);
  const rpc = new NatsRpcClient(nc, namespace, config.nats.RPC_TIMEOUT_MS);
  // The record takes one short statement per add, purge or scan: a few connections are plenty.
  const prisma = createPrismaClient({ url: config.database.DATABASE_URL, poolSize: Math.min(config.database.DATABASE_POOL_SIZE, 4) });
  const record = new SendRecord(prisma);
  const queues = new SendQueues(redis, queuesOptions(namespace, q, record));
  const rebuild = new QueueRebuild(
    queues,
    record,
    { namespace, maxWaitMs: q.QUEUE_MAX_WAIT_MS, keepFinishedMs: q.QUEUE_KEEP_FINISHED_S * 1000 },
    logger,
  );
  // Every replica checks each scan that Redis still holds the queues the record has (docs/decisions/0077).
  let rebuildTimer: NodeJS.Timeout | undefined;
  let failing = false; // logged once per outage, not at every scan
  const keepWhole = async () => {
    try {
      await rebuild.ensure();
      await rebuild.pruneNow();
      if (failing) logger.info({}, 'checking the send queues against their record works again');
      failing = false;
    } catch (err) {
      if (!failing) logger.warn({ err }, 'checking the send queues against their record failed; retrying every scan');
      failing = true;
    }
  };
  const purger = new QueuePurger(queues);
  const choosePhone: ChoosePhone = async (ctx, chatId) =>
    (await rpc.call(ChoosePhoneRpc, { ctx, chat_id: chatId, need_admin: false })).phone_id;
  const deps: QueueDeps = {
    queues,
    purger,
    gate: new PhoneGate((request) => rpc.call(PhoneDirectoryRpc, request), sessions),
    choosePhone,
    sendReach: sendReachOverRpc(rpc),
    jobsReach: jobsReachOverRpc(rpc),
    idempotency: new IdempotencyStore(redis, namespace, q.QUEUE_IDEMPOTENCY_TTL_S),
    logger,
  };

  // A phone's connector sets its pace (a Cloud API number's is not a linked device's): the phones
  // service says it, asked with the organization of the phone's jobs on record, once per phone.
  const paces = new PhonePaces(
    {
      intervalMs: q.QUEUE_SEND_INTERVAL_MS,
      cloudApiRatePerSecond: q.CLOUD_API_SEND_RATE_PER_S,
      cloudApiConcurrency: q.CLOUD_API_SEND_CONCURRENCY,
    },
    async (phoneId) => {
      const orgId = await record.orgOf(phoneId);
      if (!orgId) return null;
      const [phone] = await rpc.call(PhoneDirectoryRpc, { org_id: orgId, phone_ids: [phoneId], connected: false });
      return phone?.connector ?? null;
    },
  );
  const workers = q.QUEUE_WORKER_ENABLED
    ? new SendWorkers(
        queues,
        new SendProcessor(
          queues,
          sessions,
          {
            jitterMs: q.QUEUE_SEND_JITTER_MS,
            phoneRetryMs: q.QUEUE_PHONE_RETRY_MS,
            throttleBackoffMs: q.QUEUE_RETRY_BACKOFF_MS,
            maxWaitMs: q.QUEUE_MAX_WAIT_MS,
            holdAfterSendMs: q.QUEUE_FAULT_HOLD_AFTER_SEND_MS,
          },
          logger,
        ),
        purger,
        {
          namespace,
          record,
          connection: bullConnection(config.redis.REDIS_URL),
          intervalMs: q.QUEUE_SEND_INTERVAL_MS,
          paces,
          lockMs: q.QUEUE_JOB_LOCK_MS,
          scanMs: q.QUEUE_PHONE_SCAN_MS,
          idleMs: q.QUEUE_WORKER_IDLE_MS,
        },
        logger,
      )
    : undefined;
  const depth = new QueueDepthGauge(redis, namespace);
  const stopMetrics = registerQueueDepthMetrics(depth);
  await startRpcService({
    name: 'queue',
    nc,
    namespace,
    logger,
    nodeEnv: config.app.NODE_ENV,
    rpc: { handlers: bindHandlers(QUEUE_HANDLERS, deps) },
    start: async () => {
      await keepWhole();
      rebuildTimer = setInterval(() => void keepWhole(), q.QUEUE_PHONE_SCAN_MS);
      await workers?.start();
    },
    health: {
      host: config.health.HEALTH_HOST,
      port: config.health.HEALTH_PORT,
      indicators: [redisIndicator(() => redis.ping()), postgresIndicator(() => prisma.$queryRaw`SELECT 1`), natsIndicator(nc)],
    },
    readyFields: { workers: Boolean(workers) },
    stop: [
      () => clearInterval(rebuildTimer),
      stopMetrics, // no scrape reads Redis once it is closing
      () => workers?.stop(), // jobs under way finish (or go back to their queue)
      () => queues.close(),
    ],
    disconnect: [() => redis.disconnect(), () => prisma.$disconnect()],
  });
}
