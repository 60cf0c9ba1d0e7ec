import { Queue, QueueEvents } from 'bullmq';
import { bullConnection, injectJobTrace, type JobTraceCarrier, bullPrefix } from '@mapi/platform';

export const EMBEDDING_QUEUE = 'kb-embeddings';

/** One job: embed these entries of one organization (their current text is read when the job runs). */
export interface EmbeddingJobData {
  org_id: string;
  context_ids: string[];
  /** W3C trace context of the request that enqueued the job. */
  trace: JobTraceCarrier;
}

export type JobStanding = 'missing' | 'live' | 'completed' | 'failed';

export interface EmbeddingQueueOptions {
  redisUrl: string;
  namespace: string;
  attempts: number;
}

/**
 * The API side of the embedding queue: enqueues jobs (with the caller's trace) and can wait a
 * bounded time for one to finish. Jobs retry with exponential backoff from 1 s; a job whose worker
 * dies is taken up again by another worker once its lock expires (BullMQ stalled-job check).
 */
export class EmbeddingQueue {
  private readonly queue: Queue<EmbeddingJobData>;
  private readonly events: QueueEvents;

  constructor(private readonly options: EmbeddingQueueOptions) {
    const common = { connection: bullConnection(options.redisUrl), prefix: bullPrefix(options.namespace) };
    this.queue = new Queue<EmbeddingJobData>(EMBEDDING_QUEUE, common);
    this.events = new QueueEvents(EMBEDDING_QUEUE, common);
  }

  async ready(): Promise<void> {
    await Promise.all([this.queue.waitUntilReady(), this.events.waitUntilReady()]);
  }

  /** `jobId` makes re-enqueuing the same version a no-op. */
  async enqueue(orgId: string, contextIds: string[], jobId: string): Promise<string> {
    const job = await this.queue.add(
      'embed',
      { org_id: orgId, context_ids: contextIds, trace: injectJobTrace() },
      {
        jobId,
        attempts: this.options.attempts,
        backoff: { type: 'exponential', delay: 1_000 },
        removeOnComplete: { age: 3_600, count: 10_000 },
        removeOnFail: { age: 7 * 24 * 3_600 },
      },
    );
    return job.id ?? jobId;
  }

  /** true when the job finished within `ms`; false on timeout or failure (the entry stays pending). */
  async waitFor(jobId: string, ms: number): Promise<boolean> {
    if (ms <= 0) return false;
    const job = await this.queue.getJob(jobId);
    if (!job) return false;
    try {
      await job.waitUntilFinished(this.events, ms);
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Where a job stands, for the lost-job sweep: `missing` (never added, removed, or Redis lost it),
   * `live` (waiting, delayed, active...: it will run), `completed` or `failed` (attempts used up).
   */
  async jobState(jobId: string): Promise<JobStanding> {
    const state = await this.queue.getJobState(jobId); // one Redis call; 'unknown' when there is no such job
    if (state === 'unknown') return 'missing';
    if (state === 'completed' || state === 'failed') return state;
    return 'live';
  }

  /** Removes a finished job, so the same id can be enqueued again. */
  async removeJob(jobId: string): Promise<void> {
    await this.queue.remove(jobId);
  }

  ping(): Promise<string> {
    // The Redis backend's client is ioredis (BullMQ types it as a narrower interface without ping).
    return this.queue.getBackend().client.then((c) => (c as unknown as { ping(): Promise<string> }).ping());
  }

  async close(): Promise<void> {
    await Promise.all([this.events.close(), this.queue.close()]);
  }
}
