import { Module, type DynamicModule } from '@nestjs/common';
import {
  CreateDocumentRpc,
  CreateFaqRpc,
  DeleteDocumentRpc,
  DeleteFaqRpc,
  GetDocumentRpc,
  GetFaqRpc,
  ListKbEntriesRpc,
  SearchKbRpc,
  UpdateFaqRpc,
  base64Length,
} from '@mapi/contracts';
import { connectNats, createLogger, loadConfig, natsIndicator, postgresIndicator, redisIndicator, startRpcService, type Logger } from '@mapi/platform';
import type { PrismaClient } from '@mapi/db';
import { createStorage, type ObjectStorage } from '@mapi/storage';
import { MediaAttachmentStore } from './attachments/attachment-store';
import { loadKbStorageConfig, loadKnowledgeBaseConfig, type KnowledgeBaseConfig } from './config';
import { createEmbeddingProvider } from './embedding/create-embedding-provider';
import { KbEntryRepository } from './entries/kb-entry-repository';
import { EmbeddingQueue } from './jobs/embedding-queue';
import { createKbPrismaClient } from './kb-prisma-client';
import { KnowledgeBaseController } from './knowledge-base.controller';
import { CreateDocument } from './usecases/create-document/create-document.usecase';
import { CreateFaq } from './usecases/create-faq/create-faq.usecase';
import { DeleteDocument } from './usecases/delete-document/delete-document.usecase';
import { DeleteFaq } from './usecases/delete-faq/delete-faq.usecase';
import { GetDocument } from './usecases/get-document/get-document.usecase';
import { GetFaq } from './usecases/get-faq/get-faq.usecase';
import { ListKbEntries } from './usecases/list-entries/list-entries.usecase';
import { SearchKbEntries } from './usecases/search-entries/search-entries.usecase';
import { RequeueLostEmbeddings } from './usecases/requeue-lost-embeddings/requeue-lost-embeddings.usecase';
import { UpdateFaq } from './usecases/update-faq/update-faq.usecase';

export const KNOWLEDGE_BASE_CONTRACTS = [
  CreateFaqRpc,
  GetFaqRpc,
  UpdateFaqRpc,
  DeleteFaqRpc,
  ListKbEntriesRpc,
  CreateDocumentRpc,
  GetDocumentRpc,
  DeleteDocumentRpc,
  SearchKbRpc,
];

interface Deps {
  prisma: PrismaClient;
  queue: EmbeddingQueue;
  storage: ObjectStorage;
  kb: KnowledgeBaseConfig;
  logger: Logger;
}

@Module({})
class KnowledgeBaseModule {
  static forRoot({ prisma, queue, storage, kb, logger }: Deps): DynamicModule {
    const entries = new KbEntryRepository(prisma);
    const store = new MediaAttachmentStore(storage, kb.MEDIA_BASE_URL);
    const maxAttachment = kb.KB_ATTACHMENT_MAX_BYTES;
    const provider = createEmbeddingProvider(kb);
    const wait = kb.KB_CREATE_WAIT_FOR_EMBEDDING_MS;
    const limits = { maxBytes: kb.KB_DOCUMENT_MAX_BYTES, timeoutMs: kb.KB_FETCH_TIMEOUT_MS, allowPrivate: kb.KB_FETCH_ALLOW_PRIVATE, maxChunks: kb.KB_DOCUMENT_MAX_CHUNKS };
    return {
      module: KnowledgeBaseModule,
      controllers: [KnowledgeBaseController],
      providers: [
        { provide: CreateFaq, useValue: new CreateFaq(entries, store, maxAttachment, queue, wait, logger) },
        { provide: GetFaq, useValue: new GetFaq(entries) },
        { provide: UpdateFaq, useValue: new UpdateFaq(entries, store, maxAttachment, queue, wait, logger) },
        { provide: DeleteFaq, useValue: new DeleteFaq(entries, store, logger) },
        { provide: ListKbEntries, useValue: new ListKbEntries(entries) },
        { provide: CreateDocument, useValue: new CreateDocument(entries, store, queue, limits, logger) },
        { provide: GetDocument, useValue: new GetDocument(entries) },
        { provide: DeleteDocument, useValue: new DeleteDocument(entries, store, logger) },
        { provide: SearchKbEntries, useValue: new SearchKbEntries(entries, provider) },
      ],
    };
  }
}

/** Starts the knowledge-base service: answers its NATS subjects in the `knowledge-base` queue group; health on HEALTH_PORT. */
export async function bootstrapKnowledgeBaseService(): Promise<void> {
  const config = loadConfig(['app', 'database', 'redis', 'nats', 'health', 'telemetry']);
  const kb = loadKnowledgeBaseConfig();
  const storageConfig = loadKbStorageConfig(); // at boot, with the rest: a bad MEDIA_* variable fails here
  const logger = createLogger('knowledge-base', config.telemetry.LOG_LEVEL);
  const prisma = createKbPrismaClient(config.database.DATABASE_URL, config.database.DATABASE_POOL_SIZE, kb.KB_SEARCH_EF_SEARCH);
  const queue = new EmbeddingQueue({ redisUrl: config.redis.REDIS_URL, namespace: config.app.NAMESPACE, attempts: kb.EMBEDDING_JOB_ATTEMPTS });
  await queue.ready();
  const storage = createStorage(storageConfig);
  const nc = await connectNats(config.nats.NATS_URL, 'knowledge-base');
  const sweep = embeddingSweep(new RequeueLostEmbeddings(new KbEntryRepository(prisma), queue, { afterMs: kb.KB_EMBEDDING_SWEEP_AFTER_MS, batch: 1_000 }, logger), kb.KB_EMBEDDING_SWEEP_INTERVAL_MS, logger);
  await startRpcService({
    name: 'knowledge-base',
    nc,
    namespace: config.app.NAMESPACE,
    logger,
    nodeEnv: config.app.NODE_ENV,
    rpc: {
      module: KnowledgeBaseModule.forRoot({ prisma, queue, storage, kb, logger }),
      contracts: KNOWLEDGE_BASE_CONTRACTS,
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
    beforeClose: [() => sweep.stop()], // waits for a sweep under way
    disconnect: [() => queue.close(), () => prisma.$disconnect()],
  });
  sweep.start(); // once the service is ready
}

/** Runs the lost-job sweep every `intervalMs` (0: never) once started, one run at a time; `stop` waits for a run under way. */
function embeddingSweep(sweep: RequeueLostEmbeddings, intervalMs: number, logger: Logger): { start(): void; stop(): Promise<void> } {
  let running: Promise<void> | null = null;
  let timer: NodeJS.Timeout | undefined;
  return {
    start: () => {
      if (intervalMs <= 0) return;
      timer = setInterval(() => {
        if (running) return;
        running = sweep
          .run()
          .then((r) => (r.requeued || r.failed ? logger.info(r, 'embedding sweep') : undefined))
          .catch((err) => logger.warn({ err: (err as Error).message }, 'embedding sweep failed; retried at the next interval'))
          .finally(() => (running = null));
      }, intervalMs);
      timer.unref();
    },
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
