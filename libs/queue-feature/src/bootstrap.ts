import { Module, type DynamicModule } from '@nestjs/common';
import { Redis } from 'ioredis';
import {
  BroadcastMessageRpc,
  BroadcastStatusRpc,
  ChoosePhoneRpc,
  LegacyPurgeQueueRpc,
  ListJobsRpc,
  PurgeQueuesRpc,
  QueueStatusRpc,
  SendMessageRpc,
  type ChoosePhoneResponse,
} from '@mapi/contracts';
import { createPrismaClient } from '@mapi/db';
import { SessionCommands } from '@mapi/events';
import {
  NatsRpcClient,
  connectNats,
  createLogger,
  loadConfig,
  natsIndicator,
  postgresIndicator,
  redisIndicator,
  startRpcService,
  type Logger,
} from '@mapi/platform';
import { loadQueueConfig, type QueueConfig } from './config';
import { IdempotencyStore } from './idempotency/idempotency-store';
import { QUEUE_DEPTH_PATH, QueueDepthGauge } from './metrics/queue-depth-gauge';
import { PhoneGate } from './phones/phone-gate';
import { bullConnection } from './queues/bull-connection';
import { QueuePurger } from './queues/queue-purger';
import { SendQueues } from './queues/send-queues';
import { QueueController } from './queue.controller';
import { BroadcastMessage } from './usecases/broadcast-message/broadcast-message.usecase';
import { GetBroadcastStatus } from './usecases/broadcast-status/broadcast-status.usecase';
import { ListJobs } from './usecases/list-jobs/list-jobs.usecase';
import { PurgeQueue } from './usecases/purge-queue/purge-queue.usecase';
import { GetQueueStatus } from './usecases/queue-status/queue-status.usecase';
import { SendMessage, type ChoosePhone } from './usecases/send-message/send-message.usecase';
import { SendProcessor } from './worker/send-processor';
import { SendWorkers } from './worker/send-workers';

export const QUEUE_CONTRACTS = [SendMessageRpc, BroadcastMessageRpc, PurgeQueuesRpc, LegacyPurgeQueueRpc, QueueStatusRpc, ListJobsRpc, BroadcastStatusRpc];

interface Deps {
  queues: SendQueues;
  purger: QueuePurger;
  gate: PhoneGate;
  choosePhone: ChoosePhone;
  idempotency: IdempotencyStore;
  logger: Logger;
}

@Module({})
class QueueModule {
  static forRoot(d: Deps): DynamicModule {
    return {
      module: QueueModule,
      controllers: [QueueController],
      providers: [
        { provide: SendMessage, useFactory: () => new SendMessage(d.queues, d.choosePhone, d.idempotency) },
        { provide: BroadcastMessage, useFactory: () => new BroadcastMessage(d.queues, d.idempotency) },
        { provide: PurgeQueue, useFactory: () => new PurgeQueue(d.gate, d.purger, d.logger) },
        { provide: GetQueueStatus, useFactory: () => new GetQueueStatus(d.queues) },
        { provide: ListJobs, useFactory: () => new ListJobs(d.queues) },
        { provide: GetBroadcastStatus, useFactory: () => new GetBroadcastStatus(d.queues) },
      ],
    };
  }
}

const queuesOptions = (namespace: string, q: QueueConfig) => ({
  namespace,
  attempts: q.QUEUE_SEND_ATTEMPTS,
  backoffMs: q.QUEUE_RETRY_BACKOFF_MS,
  keepFinishedSeconds: q.QUEUE_KEEP_FINISHED_S,
});

/**
 * Starts the queue service: answers queue.v1.* in the `queue` queue group, and (unless
 * QUEUE_WORKER_ENABLED=false) runs the send workers of every phone queue. Health, and the queue
 * depth gauge at QUEUE_DEPTH_PATH, on HEALTH_PORT.
 */
export async function bootstrapQueueService(): Promise<void> {
  const config = loadConfig(['app', 'database', 'redis', 'nats', 'health', 'telemetry']);
  const q = loadQueueConfig();
  const logger = createLogger('queue', config.telemetry.LOG_LEVEL);
  const namespace = config.app.NAMESPACE;
  const prisma = createPrismaClient({ url: config.database.DATABASE_URL, poolSize: config.database.DATABASE_POOL_SIZE });
  const redis = new Redis(config.redis.REDIS_URL, { maxRetriesPerRequest: null });
  const nc = await connectNats(config.nats.NATS_URL, 'queue');
  const sessions = new SessionCommands(nc, namespace, q.QUEUE_SESSION_TIMEOUT_MS);
  const rpc = new NatsRpcClient(nc, namespace, config.nats.RPC_TIMEOUT_MS);
  const queues = new SendQueues(redis, queuesOptions(namespace, q));
  const purger = new QueuePurger(queues);
  const choosePhone: ChoosePhone = async (ctx, chatId) => (await rpc.call<ChoosePhoneResponse>(ChoosePhoneRpc, { ctx, chat_id: chatId, need_admin: false })).phone_id;
  const deps: Deps = { queues, purger, gate: new PhoneGate(prisma, sessions), choosePhone, idempotency: new IdempotencyStore(redis, namespace, q.QUEUE_IDEMPOTENCY_TTL_S), logger };

  const workers = q.QUEUE_WORKER_ENABLED
    ? new SendWorkers(
        queues,
        new SendProcessor(queues, sessions, { jitterMs: q.QUEUE_SEND_JITTER_MS, phoneRetryMs: q.QUEUE_PHONE_RETRY_MS, maxWaitMs: q.QUEUE_MAX_WAIT_MS, holdAfterSendMs: q.QUEUE_FAULT_HOLD_AFTER_SEND_MS }, logger),
        purger,
        { namespace, connection: bullConnection(config.redis.REDIS_URL), intervalMs: q.QUEUE_SEND_INTERVAL_MS, lockMs: q.QUEUE_JOB_LOCK_MS, scanMs: q.QUEUE_PHONE_SCAN_MS, idleMs: q.QUEUE_WORKER_IDLE_MS },
        logger,
      )
    : undefined;
  const depth = new QueueDepthGauge(redis, namespace);
  await startRpcService({
    name: 'queue',
    nc,
    namespace,
    logger,
    nodeEnv: config.app.NODE_ENV,
    rpc: { module: QueueModule.forRoot(deps), contracts: QUEUE_CONTRACTS },
    start: () => workers?.start(),
    health: {
      host: config.health.HEALTH_HOST,
      port: config.health.HEALTH_PORT,
      indicators: [postgresIndicator(() => prisma.$queryRaw`SELECT 1`), redisIndicator(() => redis.ping()), natsIndicator(nc)],
      // The send queue's depth for autoscalers (deploy/components/keda): any replica answers for all.
      routes: { [QUEUE_DEPTH_PATH]: () => depth.read() },
    },
    readyFields: { workers: Boolean(workers) },
    stop: [
      () => workers?.stop(), // jobs under way finish (or go back to their queue)
      () => queues.close(),
    ],
    disconnect: [() => redis.disconnect(), () => prisma.$disconnect()],
  });
}
