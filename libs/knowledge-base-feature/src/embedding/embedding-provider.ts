import { EMBEDDING_DIMENSIONS } from '../rows/embedding-dimensions';

export { EMBEDDING_DIMENSIONS } from '../rows/embedding-dimensions';

/** Turns texts into vectors of EMBEDDING_DIMENSIONS, one per text, in order. */
export interface EmbeddingProvider {
  /** Stored beside each vector: which model made it (vectors of different models do not compare). */
  readonly model: string;
  embed(texts: string[]): Promise<number[][]>;
}

export class EmbeddingError extends Error {
  constructor(
    message: string,
    /** false: retrying the same request cannot succeed (bad key, bad dimensions). */
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'EmbeddingError';
  }
}

/** The text an entry is embedded from. */
export const embeddingText = (entry: { question: string; answer: string }): string => `${entry.question}\n${entry.answer}`;

/** pgvector's text form: `[0.1,-0.2,...]`. */
export function toVectorLiteral(vector: number[]): string {
  if (vector.length !== EMBEDDING_DIMENSIONS) {
    throw new EmbeddingError(`vector has ${vector.length} dimensions; ${EMBEDDING_DIMENSIONS} are required`, false);
  }
  for (const x of vector) if (!Number.isFinite(x)) throw new EmbeddingError('vector contains a non-finite number', false);
  return `[${vector.join(',')}]`;
}

export function l2Normalize(vector: number[]): number[] {
  let sum = 0;
  for (const x of vector) sum += x * x;
  const norm = Math.sqrt(sum);
  return norm > 0 ? vector.map((x) => x / norm) : vector;
}
