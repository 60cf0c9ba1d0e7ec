import { SpanStatusCode, trace } from '@opentelemetry/api';
import { Queue, Worker } from 'bullmq';
import {
  bullConnection,
  createLogger,
  extractJobTrace,
  loadConfig,
  onShutdownSignal,
  postgresIndicator,
  redisIndicator,
  startHealthServer,
  bullPrefix,
} from '@mapi/platform';
import { loadKnowledgeBaseConfig } from '../config';
import { createEmbeddingProvider } from '../embedding/create-embedding-provider';
import { KbEntryRepository } from '../repositories/kb-entry-repository';
import { EmbedEntries } from '../jobs/embed-entries';
import { EMBEDDING_QUEUE, type EmbeddingJobData } from '../jobs/embedding-queue';
import { createKbPrismaClient } from '../kb-prisma-client';
import { EmbeddingBacklog } from '../metrics/embedding-backlog';
import { registerEmbeddingMetrics } from '../metrics/embedding-metrics';

/**
 * The embedding worker: its own process (scaled on its own), taking jobs from the BullMQ queue,
 * each run in the trace of the request that enqueued it. Health, and the embedding backlog among
 * the metrics (what deploy/components/keda scales it on), on HEALTH_PORT.
 */
export async function bootstrapEmbeddingWorker(): Promise<void> {
  const config = loadConfig(['app', 'database', 'redis', 'health', 'telemetry']);
  const kb = loadKnowledgeBaseConfig();
  const logger = createLogger('embedding-worker', config.telemetry.LOG_LEVEL);
  const prisma = createKbPrismaClient(config.database.DATABASE_URL, config.database.DATABASE_POOL_SIZE, {
    efSearch: kb.KB_SEARCH_EF_SEARCH,
    perTransaction: config.database.DATABASE_POOLER === 'pgbouncer',
  });
  const provider = createEmbeddingProvider(kb);
  const embed = new EmbedEntries(new KbEntryRepository(prisma), provider, logger);
  const tracer = trace.getTracer('embedding-worker');

  const worker = new Worker<EmbeddingJobData>(
    EMBEDDING_QUEUE,
    (job) =>
      tracer.startActiveSpan(
        'kb.embed',
        { attributes: { 'job.id': job.id ?? '', 'kb.entries': job.data.context_ids.length } },
        extractJobTrace(job.data.trace),
        async (span) => {
          try {
            const result = await embed.run(job.data);
            logger.info({ job_id: job.id, org_id: job.data.org_id, attempt: job.attemptsMade + 1, ...result }, 'embedding job done');
            return result;
          } catch (error) {
            span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
            logger.warn(
              { job_id: job.id, org_id: job.data.org_id, attempt: job.attemptsMade + 1, err: (error as Error).message },
              'embedding job failed',
            );
            throw error;
          } finally {
            span.end();
          }
        },
      ),
    {
      connection: bullConnection(config.redis.REDIS_URL),
      prefix: bullPrefix(config.app.NAMESPACE),
      concurrency: kb.EMBEDDING_WORKER_CONCURRENCY,
      lockDuration: kb.EMBEDDING_JOB_LOCK_MS,
      stalledInterval: kb.EMBEDDING_JOB_LOCK_MS,
      maxStalledCount: 2,
      autorun: false,
    },
  );
  worker.on('error', (err) => logger.error({ err }, 'worker error'));
  await worker.waitUntilReady();
  void worker.run();
  // Read-only: the queue's counts for GET /metrics.
  const counts = new Queue(EMBEDDING_QUEUE, {
    connection: bullConnection(config.redis.REDIS_URL),
    prefix: bullPrefix(config.app.NAMESPACE),
  });
  const stopMetrics = registerEmbeddingMetrics(new EmbeddingBacklog(counts, prisma));

  let shuttingDown = false;
  const health = await startHealthServer({
    host: config.health.HEALTH_HOST,
    port: config.health.HEALTH_PORT,
    indicators: [
      postgresIndicator(() => prisma.$queryRaw`SELECT 1`),
      redisIndicator(async () => ((await worker.getBackend().client) as unknown as { ping(): Promise<string> }).ping()),
    ],
    isShuttingDown: () => shuttingDown,
  });
  const address = health.address();
  logger.info(
    { health_port: typeof address === 'object' && address ? address.port : null, provider: provider.model },
    'embedding worker ready',
  );

  onShutdownSignal(logger, async () => {
    shuttingDown = true;
    stopMetrics();
    await worker.close(); // finishes the jobs under way
    await counts.close();
    await prisma.$disconnect();
    health.close();
  });
}
