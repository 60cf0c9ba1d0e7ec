import { Worker, type ConnectionOptions } from 'bullmq';
import { SpanStatusCode, trace } from '@opentelemetry/api';
import { extractJobTrace, type Logger } from '@mapi/platform';
import { phonesWithQueuesKey, queuePrefix, sendQueueName } from '../queues/keys';
import type { QueuePurger } from '../queues/queue-purger';
import type { SendJobData } from '../queues/send-job';
import type { SendQueues } from '../queues/send-queues';
import type { SendProcessor } from './send-processor';

export interface SendWorkersOptions {
  namespace: string;
  connection: ConnectionOptions;
  intervalMs: number;
  lockMs: number;
  scanMs: number;
}

/**
 * One BullMQ worker per phone queue in this process (concurrency 1: a phone's messages go out in
 * order), with the queue's rate limiter as the phone's pacing — BullMQ keeps the limiter in Redis, so
 * it holds across replicas. Every replica serves every phone; BullMQ hands each job to one of them.
 * New phones are found by scanning the set of phones with queues. The scan also finishes purge
 * clean-ups a crashed process left.
 */
export class SendWorkers {
  private readonly workers = new Map<string, Worker<SendJobData>>();
  private timer?: NodeJS.Timeout;
  private scanning: Promise<void> = Promise.resolve();
  private stopped = false;
  private readonly tracer = trace.getTracer('queue-worker');

  constructor(
    private readonly queues: SendQueues,
    private readonly processor: SendProcessor,
    private readonly purger: QueuePurger,
    private readonly options: SendWorkersOptions,
    private readonly logger: Logger,
  ) {}

  async start(): Promise<void> {
    await this.scan();
    this.schedule();
  }

  private schedule() {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.scanning = this.scan()
        .catch((err) => this.logger.warn({ err }, 'queue scan failed'))
        .finally(() => this.schedule());
    }, this.options.scanMs);
  }

  private async scan(): Promise<void> {
    const phones = await this.queues.redis.smembers(phonesWithQueuesKey(this.options.namespace));
    for (const phoneId of phones) {
      if (this.stopped) return;
      if (!this.workers.has(phoneId)) await this.startWorker(phoneId);
      if (await this.queues.redis.exists(this.queues.keys(phoneId).trash)) await this.purger.sweep(phoneId);
    }
  }

  private async startWorker(phoneId: string): Promise<void> {
    const worker = new Worker<SendJobData>(
      sendQueueName(phoneId),
      (job) =>
        this.tracer.startActiveSpan('queue.send', { attributes: { 'job.id': job.id ?? '', 'phone.id': phoneId } }, extractJobTrace(job.data.trace), async (span) => {
          try {
            return await this.processor.process(job);
          } catch (error) {
            span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
            throw error;
          } finally {
            span.end();
          }
        }),
      {
        connection: this.options.connection,
        prefix: queuePrefix(this.options.namespace),
        concurrency: 1,
        limiter: { max: 1, duration: Math.max(1, this.options.intervalMs) },
        lockDuration: this.options.lockMs,
        stalledInterval: this.options.lockMs,
        maxStalledCount: 5,
        autorun: false,
      },
    );
    worker.on('error', (err) => this.logger.error({ err, phone_id: phoneId }, 'send worker error'));
    worker.on('failed', (job, err) => job && this.logger.warn({ job_id: job.id, phone_id: phoneId, attempt: job.attemptsMade, err: err.message }, 'send job failed'));
    this.workers.set(phoneId, worker);
    await worker.waitUntilReady();
    void worker.run();
  }

  get phones(): string[] {
    return [...this.workers.keys()];
  }

  /** Stops taking jobs and waits for the ones under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.scanning;
    await Promise.all([...this.workers.values()].map((w) => w.close()));
  }
}
