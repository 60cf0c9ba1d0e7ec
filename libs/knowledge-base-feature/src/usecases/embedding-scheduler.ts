/** What the use cases need of the embedding queue (EmbeddingQueue implements it; tests fake it). */
export interface EmbeddingScheduler {
  enqueue(orgId: string, contextIds: string[], jobId: string): Promise<string>;
  /** true when the job finished within `ms`. */
  waitFor(jobId: string, ms: number): Promise<boolean>;
}

export const faqJobId = (contextId: string, version: number) => `${contextId}-v${version}`;
