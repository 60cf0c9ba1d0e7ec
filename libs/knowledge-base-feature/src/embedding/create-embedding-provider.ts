import type { KnowledgeBaseConfig } from '../config';
import type { EmbeddingProvider } from './embedding-provider';
import { OfflineHashEmbedder } from './offline-hash-embedder';
import { OpenAiCompatibleEmbedder } from './openai-compatible-embedder';

/** The provider EMBEDDING_PROVIDER names; the API (search queries) and the worker use the same one. */
export function createEmbeddingProvider(config: KnowledgeBaseConfig): EmbeddingProvider {
  if (config.EMBEDDING_PROVIDER === 'offline' || !config.EMBEDDING_HTTP_BASE_URL) return new OfflineHashEmbedder();
  return new OpenAiCompatibleEmbedder({
    baseUrl: config.EMBEDDING_HTTP_BASE_URL,
    model: config.EMBEDDING_HTTP_MODEL,
    apiKey: config.EMBEDDING_HTTP_API_KEY,
    sendDimensions: config.EMBEDDING_HTTP_SEND_DIMENSIONS,
    batchSize: config.EMBEDDING_HTTP_BATCH_SIZE,
    maxRetries: config.EMBEDDING_HTTP_MAX_RETRIES,
    retryBaseMs: config.EMBEDDING_HTTP_RETRY_BASE_MS,
    timeoutMs: config.EMBEDDING_HTTP_TIMEOUT_MS,
  });
}
