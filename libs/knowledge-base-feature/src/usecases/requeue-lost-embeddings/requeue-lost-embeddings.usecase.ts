import type { Logger } from '@mapi/platform';
import type { KbEntryRepository, PendingEntry } from '../../repositories/kb-entry-repository';
import type { JobStanding } from '../../jobs/embedding-queue';
import { CHUNKS_PER_JOB, documentJobId, faqJobId, type EmbeddingScheduler } from '../embedding-scheduler';

/** What the sweep needs of the queue besides enqueueing (EmbeddingQueue implements it). */
export interface SweptQueue extends Pick<EmbeddingScheduler, 'enqueue'> {
  jobState(jobId: string): Promise<JobStanding>;
  removeJob(jobId: string): Promise<void>;
}

export interface SweepOptions {
  /** Pending for longer than this (since the last text change) makes an entry a candidate. */
  afterMs: number;
  /** Most organizations, and entries per organization, looked at per run. */
  batch: number;
}

export interface SweepResult {
  pending: number;
  requeued: number;
  failed: number;
}

/**
 * Re-enqueues lost embedding jobs: entries pending for longer than `afterMs` whose job is not in the
 * queue (Redis flushed, a job removed) get it back under the same job id (FAQs `<context_id>-v<version>`,
 * document chunks `doc-<document_id>-<batch>`), so running it again, or on several replicas at once,
 * adds nothing twice. A job that completed while its entries are still pending lost its result and is
 * replaced; a failed job (attempts used up) is left for the operator and counted.
 */
export class RequeueLostEmbeddings {
  constructor(
    private readonly entries: KbEntryRepository,
    private readonly queue: SweptQueue,
    private readonly options: SweepOptions,
    private readonly logger: Logger,
  ) {}

  async run(now = new Date()): Promise<SweepResult> {
    const before = new Date(now.getTime() - this.options.afterMs);
    const result: SweepResult = { pending: 0, requeued: 0, failed: 0 };
    for (const orgId of await this.entries.orgsWithStalePending(before, this.options.batch)) {
      const pending = await this.entries.stalePending(orgId, before, this.options.batch);
      result.pending += pending.length;
      for (const [jobId, contextIds] of groupByJob(pending)) {
        const standing = await this.queue.jobState(jobId);
        if (standing === 'live') continue;
        if (standing === 'failed') {
          result.failed++;
          continue;
        }
        if (standing === 'completed') await this.queue.removeJob(jobId);
        await this.queue.enqueue(orgId, contextIds, jobId);
        result.requeued++;
        this.logger.warn({ org_id: orgId, job_id: jobId, entries: contextIds.length, was: standing }, 'lost embedding job re-enqueued');
      }
    }
    return result;
  }
}

/** The job each pending entry belongs to, with the entries of that job that are pending. */
function groupByJob(pending: PendingEntry[]): Map<string, string[]> {
  const jobs = new Map<string, string[]>();
  for (const e of pending) {
    const jobId =
      e.type === 'document' && e.document_id && e.chunk_index !== null
        ? documentJobId(e.document_id, Math.floor(e.chunk_index / CHUNKS_PER_JOB))
        : faqJobId(e.context_id, e.content_version);
    jobs.set(jobId, [...(jobs.get(jobId) ?? []), e.context_id]);
  }
  return jobs;
}
