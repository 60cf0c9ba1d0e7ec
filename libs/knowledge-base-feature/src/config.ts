import { z } from 'zod';
import { envBool, parseConfig } from '@mapi/platform';
import { storageConfigSchema, type StorageConfig } from '@mapi/storage';

const int = (def: number, min = 0, max = Number.MAX_SAFE_INTEGER) =>
  z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(min).max(max).default(def));
const bool = envBool;

/**
 * Configuration of the knowledge-base service and its embedding worker (docs/services/knowledge-base.md).
 * Kept in this lib rather than the shared config file: only these two apps read it.
 */
export const KnowledgeBaseConfigSchema = z
  .object({
    /** offline: built-in hashing embedder (no download); openai: any OpenAI-compatible /v1/embeddings server. */
    EMBEDDING_PROVIDER: z.enum(['offline', 'openai']).default('offline'),
    /** Base URL ending in /v1, e.g. https://api.openai.com/v1 or http://localhost:11434/v1 (Ollama). */
    EMBEDDING_HTTP_BASE_URL: z.url().optional(),
    EMBEDDING_HTTP_MODEL: z.string().min(1).default('text-embedding-3-small'),
    EMBEDDING_HTTP_API_KEY: z.string().optional(),
    /** Send `dimensions: 384` (OpenAI text-embedding-3-*); turn off for servers whose model is natively 384-d. */
    EMBEDDING_HTTP_SEND_DIMENSIONS: bool(true),
    EMBEDDING_HTTP_BATCH_SIZE: int(64, 1, 2048),
    EMBEDDING_HTTP_MAX_RETRIES: int(3, 0, 10),
    EMBEDDING_HTTP_RETRY_BASE_MS: int(500),
    EMBEDDING_HTTP_TIMEOUT_MS: int(30_000, 1),
    /** Attempts of an embedding job before it is left failed (exponential backoff from 1 s). */
    EMBEDDING_JOB_ATTEMPTS: int(8, 1, 100),
    EMBEDDING_WORKER_CONCURRENCY: int(4, 1, 256),
    /** Lock of a running job; a job whose worker died is taken up again after about this long. */
    EMBEDDING_JOB_LOCK_MS: int(30_000, 1_000),
    /** How long create/update wait for the worker before answering with `embedding: null`. */
    KB_CREATE_WAIT_FOR_EMBEDDING_MS: int(1_500),
    /** {media_base_url} of spec part 1 (the media app's): stored files are linked as {MEDIA_BASE_URL}/app/media/... */
    MEDIA_BASE_URL: z
      .preprocess((v) => (v === '' ? undefined : v), z.url().default('http://localhost:8090'))
      .transform((u) => u.replace(/\/+$/, '')),
    /** Largest FAQ attachment (inline or uploaded); 413 above. */
    KB_ATTACHMENT_MAX_BYTES: int(10 * 1024 * 1024, 1),
    /** How often the service looks for entries whose embedding job was lost (0: never). */
    KB_EMBEDDING_SWEEP_INTERVAL_MS: int(60_000),
    /** An entry pending for longer than this with no live job in the queue is re-enqueued. */
    KB_EMBEDDING_SWEEP_AFTER_MS: int(300_000, 1_000),
    /** Largest document (after base64 decoding or download). */
    KB_DOCUMENT_MAX_BYTES: int(10 * 1024 * 1024, 1),
    KB_DOCUMENT_MAX_CHUNKS: int(5_000, 1),
    KB_FETCH_TIMEOUT_MS: int(10_000, 1),
    /** Allow document URLs on loopback/private addresses (off: protects the internal network). */
    KB_FETCH_ALLOW_PRIVATE: bool(false),
    /** pgvector hnsw.ef_search for searches (candidates kept per HNSW scan). */
    KB_SEARCH_EF_SEARCH: int(100, 1, 1000),
    /** hnsw.ef_search of searches of an organization with its own index (an unfiltered walk of its graph). */
    KB_SEARCH_EF_SEARCH_OWN_INDEX: int(40, 1, 1000),
    /** An organization with at least this many entries gets its own partial HNSW index (0: never). */
    KB_ORG_INDEX_MIN_ENTRIES: int(10_000),
    /** How often each replica checks for organizations to index (0: never; one build at a time across replicas). */
    KB_ORG_INDEX_INTERVAL_MS: int(300_000),
    /** maintenance_work_mem of the session that builds an organization's index (≈ 2 KB per 384-d entry). */
    KB_ORG_INDEX_MAINTENANCE_WORK_MEM: z
      .string()
      .regex(/^\d+\s*(kB|MB|GB)$/)
      .default('256MB'),
  })
  .superRefine((c, ctx) => {
    if (c.EMBEDDING_PROVIDER === 'openai' && !c.EMBEDDING_HTTP_BASE_URL) {
      ctx.addIssue({ code: 'custom', path: ['EMBEDDING_HTTP_BASE_URL'], message: 'required when EMBEDDING_PROVIDER=openai' });
    }
  });
export type KnowledgeBaseConfig = z.infer<typeof KnowledgeBaseConfigSchema>;

export function loadKnowledgeBaseConfig(env: NodeJS.ProcessEnv = process.env): KnowledgeBaseConfig {
  return parseConfig(KnowledgeBaseConfigSchema, env);
}

/**
 * Where attachments and documents are stored: the media storage (libs/storage), read from the media
 * app's own variables (MEDIA_STORAGE_BACKEND, MEDIA_STORAGE_ROOT, MEDIA_S3_...), so both services
 * point at the same place and apps/media serves what the knowledge base stores.
 */
export function loadKbStorageConfig(env: NodeJS.ProcessEnv = process.env): StorageConfig {
  return parseConfig(storageConfigSchema('MEDIA_'), env);
}
