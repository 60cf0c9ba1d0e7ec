import type { BatchObservableResult, Observable } from '@opentelemetry/api';
import { METRICS, metricOptions } from '@mapi/contracts';
import { meter } from '@mapi/platform';
import { EMBEDDING_JOB_STATES, type EmbeddingBacklogReading } from './embedding-backlog';

/**
 * The embedding backlog on GET /metrics of the embedding worker, read when scraped:
 * `mapi.embedding.jobs` {state: waiting, delayed, active, failed} and
 * `mapi.embedding.entries.pending`. No organization label (the queue is shared); every worker
 * replica reports the same figures: take the max, never the sum.
 */
export function registerEmbeddingMetrics(backlog: { read(): Promise<EmbeddingBacklogReading> }): () => void {
  const m = meter();
  const jobs = m.createObservableGauge(METRICS.embeddingJobs.name, metricOptions(METRICS.embeddingJobs));
  const pending = m.createObservableGauge(METRICS.embeddingEntriesPending.name, metricOptions(METRICS.embeddingEntriesPending));
  const observables: Observable[] = [jobs, pending];
  const observe = async (result: BatchObservableResult) => {
    const b = await backlog.read();
    for (const state of EMBEDDING_JOB_STATES) result.observe(jobs, b[state], { state });
    result.observe(pending, b.pending_entries);
  };
  m.addBatchObservableCallback(observe, observables);
  return () => m.removeBatchObservableCallback(observe, observables);
}
