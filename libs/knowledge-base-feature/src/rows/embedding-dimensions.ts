/**
 * Dimension of every stored vector: the column is vector(384). The offline embedder produces it; an
 * HTTP provider must be configured to it (OpenAI text-embedding-3-* with `dimensions`, or a 384-d
 * model such as all-MiniLM-L6-v2 / bge-small). Vectors of another size fail the job with a clear error.
 */
export const EMBEDDING_DIMENSIONS = 384;
