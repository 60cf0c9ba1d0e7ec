import { EMBEDDING_DIMENSIONS, EmbeddingError, l2Normalize, type EmbeddingProvider } from './embedding-provider';

export interface OpenAiCompatibleOptions {
  /** Base URL ending in /v1; requests go to `${baseUrl}/embeddings`. */
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** Send `dimensions: 384` (models that can shorten their vectors, e.g. OpenAI text-embedding-3-*). */
  sendDimensions: boolean;
  batchSize: number;
  maxRetries: number;
  retryBaseMs: number;
  timeoutMs: number;
}

interface EmbeddingsAnswer {
  data?: Array<{ embedding?: unknown; index?: number }>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * An OpenAI-compatible `/v1/embeddings` client (OpenAI, Ollama, vLLM, text-embeddings-inference):
 * batches of `batchSize` inputs, retries with exponential backoff on network errors, timeouts, 429
 * and 5xx (honouring Retry-After), and no retry on other 4xx. Every vector must have 384 dimensions.
 */
export class OpenAiCompatibleEmbedder implements EmbeddingProvider {
  readonly model: string;

  constructor(private readonly options: OpenAiCompatibleOptions) {
    this.model = `openai:${options.model}`;
  }

  async embed(texts: string[]): Promise<number[][]> {
    const out: number[][] = [];
    for (let i = 0; i < texts.length; i += this.options.batchSize) {
      out.push(...(await this.embedBatch(texts.slice(i, i + this.options.batchSize))));
    }
    return out;
  }

  private async embedBatch(input: string[]): Promise<number[][]> {
    let attempt = 0;
    for (;;) {
      try {
        return await this.request(input);
      } catch (error) {
        const retryable = !(error instanceof EmbeddingError) || error.retryable;
        if (!retryable || attempt >= this.options.maxRetries) throw error;
        const after = (error as { retryAfterMs?: number }).retryAfterMs;
        await sleep(after ?? this.options.retryBaseMs * 2 ** attempt);
        attempt++;
      }
    }
  }

  private async request(input: string[]): Promise<number[][]> {
    const body: Record<string, unknown> = { model: this.options.model, input, encoding_format: 'float' };
    if (this.options.sendDimensions) body.dimensions = EMBEDDING_DIMENSIONS;
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.options.apiKey) headers.authorization = `Bearer ${this.options.apiKey}`;
    let res: Response;
    try {
      res = await fetch(`${this.options.baseUrl.replace(/\/+$/, '')}/embeddings`, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
    } catch (error) {
      throw new EmbeddingError(`embedding provider unreachable: ${(error as Error).message}`, true);
    }
    if (!res.ok) {
      const text = (await res.text().catch(() => '')).slice(0, 300);
      const retryable = res.status === 429 || res.status >= 500 || res.status === 408;
      const failure = new EmbeddingError(`embedding provider answered ${res.status}: ${text}`, retryable);
      const retryAfter = Number(res.headers.get('retry-after'));
      if (retryable && Number.isFinite(retryAfter) && retryAfter > 0) {
        Object.assign(failure, { retryAfterMs: Math.min(retryAfter * 1000, 30_000) });
      }
      throw failure;
    }
    const answer = (await res.json().catch(() => ({}))) as EmbeddingsAnswer;
    const data = answer.data;
    if (!Array.isArray(data) || data.length !== input.length) {
      throw new EmbeddingError(
        `embedding provider answered ${Array.isArray(data) ? data.length : 'no'} vectors for ${input.length} inputs`,
        true,
      );
    }
    const ordered = [...data].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
    return ordered.map((item) => {
      const v = item.embedding;
      if (!Array.isArray(v) || !v.every((x) => typeof x === 'number' && Number.isFinite(x))) {
        throw new EmbeddingError('embedding provider answered a vector that is not an array of numbers', false);
      }
      if (v.length !== EMBEDDING_DIMENSIONS) {
        throw new EmbeddingError(
          `embedding provider answered ${v.length}-dimensional vectors; ${EMBEDDING_DIMENSIONS} are required ` +
            '(set EMBEDDING_HTTP_SEND_DIMENSIONS=true for models that accept `dimensions`, or use a 384-d model)',
          false,
        );
      }
      return l2Normalize(v as number[]);
    });
  }
}
