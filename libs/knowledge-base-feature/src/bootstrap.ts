import { base64Length } from '@mapi/contracts';
import {
  bindHandlers,
  connectNats,
  createLogger,
  directDatabaseUrl,
  loadConfig,
  natsIndicator,
  postgresIndicator,
  redisIndicator,
  startRpcService,
  type Logger,
} from '@mapi/platform';
import { createStorage } from '@mapi/storage';
import { MediaAttachmentStore } from './attachments/attachment-store';
import { loadKbStorageConfig, loadKnowledgeBaseConfig } from './config';
import { createEmbeddingProvider } from './embedding/create-embedding-provider';
import { KbEntryRepository } from './repositories/kb-entry-repository';
import { EmbeddingQueue } from './jobs/embedding-queue';
import { createKbPrismaClient } from './kb-prisma-client';
import { KNOWLEDGE_BASE_HANDLERS } from './knowledge-base.handlers';
import { RequeueLostEmbeddings } from './usecases/requeue-lost-embeddings/requeue-lost-embeddings.usecase';
import { KbOrgIndexRepository } from './repositories/kb-org-index-repository';
import { KbOrgIndexDirectory } from './repositories/kb-org-index-directory';
import { IndexLargeOrganizations } from './usecases/index-large-organizations/index-large-organizations.usecase';

/** Starts the knowledge-base service: answers its NATS subjects in the `knowledge-base` queue group; health on HEALTH_PORT. */
export async function bootstrapKnowledgeBaseService(): Promise<void> {
  const config = loadConfig(['app', 'database', 'redis', 'nats', 'health', 'telemetry']);
  const kb = loadKnowledgeBaseConfig();
  const storageConfig = loadKbStorageConfig(); // at boot, with the rest: a bad MEDIA_* variable fails here
  const logger = createLogger('knowledge-base', config.telemetry.LOG_LEVEL);
  const search = { efSearch: kb.KB_SEARCH_EF_SEARCH, perTransaction: config.database.DATABASE_POOLER === 'pgbouncer' };
  const prisma = createKbPrismaClient(config.database.DATABASE_URL, config.database.DATABASE_POOL_SIZE, search);
  // Organizations with their own index search with their own ef_search: direct to Postgres a second pool
  // (the setting is a connection option; connections open only when used), behind a pooler the same one.
  const ownSearch = { efSearch: kb.KB_SEARCH_EF_SEARCH_OWN_INDEX, perTransaction: search.perTransaction };
  const ownPrisma =
    search.perTransaction || ownSearch.efSearch === search.efSearch
      ? prisma
      : createKbPrismaClient(config.database.DATABASE_URL, config.database.DATABASE_POOL_SIZE, ownSearch);
  const directory = new KbOrgIndexDirectory(prisma);
  await directory.refresh();
  const queue = new EmbeddingQueue({
    redisUrl: config.redis.REDIS_URL,
    namespace: config.app.NAMESPACE,
    attempts: kb.EMBEDDING_JOB_ATTEMPTS,
  });
  await queue.ready();
  const storage = createStorage(storageConfig);
  const nc = await connectNats(config.nats.NATS_URL, 'knowledge-base');
  const requeue = new RequeueLostEmbeddings(
    new KbEntryRepository(prisma),
    queue,
    { afterMs: kb.KB_EMBEDDING_SWEEP_AFTER_MS, batch: 1_000 },
    logger,
  );
  const sweep = periodic('embedding sweep', kb.KB_EMBEDDING_SWEEP_INTERVAL_MS, logger, async () => {
    const r = await requeue.run();
    if (r.requeued || r.failed) logger.info(r, 'embedding sweep');
  });
  const indexing = new IndexLargeOrganizations(
    new KbOrgIndexRepository(directDatabaseUrl(config.database)),
    { minEntries: kb.KB_ORG_INDEX_MIN_ENTRIES, maintenanceWorkMem: kb.KB_ORG_INDEX_MAINTENANCE_WORK_MEM },
    logger,
  );
  const directoryRefresh = periodic('organization index directory', 30_000, logger, () => directory.refresh());
  const orgIndexes = periodic('organization indexes', kb.KB_ORG_INDEX_INTERVAL_MS, logger, async () => {
    const r = await indexing.run();
    if (r.dropped.length > 0) logger.info(r, 'knowledge-base: organization indexes dropped');
  });
  await startRpcService({
    name: 'knowledge-base',
    nc,
    namespace: config.app.NAMESPACE,
    logger,
    nodeEnv: config.app.NODE_ENV,
    rpc: {
      handlers: bindHandlers(KNOWLEDGE_BASE_HANDLERS, {
        entries: new KbEntryRepository(prisma, search),
        prisma,
        ownIndex: { entries: new KbEntryRepository(ownPrisma, ownSearch), directory },
        store: new MediaAttachmentStore(storage, kb.MEDIA_BASE_URL),
        queue,
        provider: createEmbeddingProvider(kb),
        kb,
        logger,
      }),
      // Documents arrive whole in one request (chunked over NATS): room for the largest in base64 and JSON.
      maxRequestBytes: base64Length(Math.max(kb.KB_DOCUMENT_MAX_BYTES, kb.KB_ATTACHMENT_MAX_BYTES)) + 4 * 1024 * 1024,
    },
    health: {
      host: config.health.HEALTH_HOST,
      port: config.health.HEALTH_PORT,
      indicators: [
        postgresIndicator(() => prisma.$queryRaw`SELECT 1`),
        redisIndicator(() => queue.ping()),
        natsIndicator(nc),
        { name: 'storage', check: () => storage.check() },
      ],
    },
    readyFields: { provider: kb.EMBEDDING_PROVIDER },
    // The sweep's run is waited for; an index build (minutes) is not: Postgres finishes it after the exit
    // (the session lock stays with the backend until then), or, cancelled, it leaves an invalid index
    // that the next run drops and builds again.
    beforeClose: [() => sweep.stop(), () => orgIndexes.stop(false), () => directoryRefresh.stop()],
    disconnect: [() => queue.close(), () => prisma.$disconnect(), () => (ownPrisma === prisma ? undefined : ownPrisma.$disconnect())],
  });
  sweep.start(); // once the service is ready
  orgIndexes.start();
  directoryRefresh.start();
}

/** Runs `job` every `intervalMs` (0: never) once started, one run at a time; `stop` waits for a run under way unless told not to. */
function periodic(
  name: string,
  intervalMs: number,
  logger: Logger,
  job: () => Promise<void>,
): { start(): void; stop(wait?: boolean): Promise<void> } {
  let running: Promise<void> | null = null;
  let timer: NodeJS.Timeout | undefined;
  return {
    start: () => {
      if (intervalMs <= 0) return;
      timer = setInterval(() => {
        if (running) return;
        running = job()
          .catch((err) => logger.warn({ err: (err as Error).message }, `${name} failed; retried at the next interval`))
          .finally(() => (running = null));
      }, intervalMs);
      timer.unref();
    },
    stop: async (wait = true) => {
      clearInterval(timer);
      if (wait) await running;
    },
  };
}
