/** What the use cases need of the embedding queue (EmbeddingQueue implements it; tests fake it). */
export interface EmbeddingScheduler {
  enqueue(orgId: string, contextIds: string[], jobId: string): Promise<string>;
  /** true when the job finished within `ms`. */
  waitFor(jobId: string, ms: number): Promise<boolean>;
}

/** Job of an FAQ or self-learned entry: one per text version, so re-enqueuing the same version is a no-op. */
export const faqJobId = (contextId: string, version: number) => `${contextId}-v${version}`;

/** Document chunks are embedded in jobs of this many chunks (one provider batch: short jobs, cheap retries). */
export const CHUNKS_PER_JOB = 64;

/** Job of the chunks `batch * CHUNKS_PER_JOB ..` of a document (chunks are never edited: one version). */
export const documentJobId = (documentId: string, batch: number) => `doc-${documentId}-${batch}`;
