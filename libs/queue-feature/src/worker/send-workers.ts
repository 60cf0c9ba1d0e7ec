import { Worker, type ConnectionOptions } from 'bullmq';
import { SpanStatusCode, trace } from '@opentelemetry/api';
import { extractJobTrace, outageLog, type Logger, bullPrefix } from '@mapi/platform';
import { countPhoneQueues, isEmptyQueue } from '../metrics/phone-queue-counts';
import { phonesWithQueuesKey, sendQueueName, workersAliveKey } from '../queues/keys';
import type { QueuePurger } from '../queues/queue-purger';
import type { SendJobData } from '../queues/send-job';
import type { SendQueues } from '../queues/send-queues';
import type { SendRecord } from '../record/send-record';
import { ChatTurns, keepPutBackOrder } from './chat-turns';
import { PhoneLeases } from './phone-lease';
import { PhonePaces, type Pace } from './phone-pace';
import type { SendProcessor } from './send-processor';

export interface SendWorkersOptions {
  namespace: string;
  connection: ConnectionOptions;
  /** The linked-device pace's interval (every phone's when `paces` is not given). */
  intervalMs: number;
  /** Each phone's pace by its connector (phone-pace.ts); absent: every phone at the linked-device pace. */
  paces?: PhonePaces;
  lockMs: number;
  scanMs: number;
  /** The jobs' record: told which jobs finished (sent, or failed for good), a batch per scan. */
  record?: SendRecord;
  /** Close a phone's worker after its queue has been empty this long; 0: never. */
  idleMs: number;
}

/**
 * One BullMQ worker per busy phone queue in this process (concurrency 1: a phone's messages go out
 * in order), with the queue's rate limiter as the phone's pacing — BullMQ keeps the limiter in
 * Redis, so it holds across replicas. The pace is the phone's connector's (phone-pace.ts), learnt
 * when its worker starts. Every replica serves every busy phone at a linked device's pace; BullMQ
 * hands each job to one of them. A phone paced fast (a Cloud API number) is served by one replica at
 * a time (PhoneLeases, renewed at each scan), or its jobs would run side by side, out of order; within
 * it, up to its pace's `concurrency` jobs are in flight at once, one per chat (ChatTurns), and jobs
 * that go back to the queue together go back in queue order (keepPutBackOrder).
 *
 * Every `scanMs` the scan counts each phone's queue (countPhoneQueues: one pipeline): a phone with
 * jobs (waiting, delayed or active) and no worker here gets one; a worker whose queue has been empty
 * for `idleMs` is closed (it holds a blocking Redis connection). Closing is graceful, so a job that
 * arrives while it closes is either finished by that worker or left in Redis for the next scan,
 * which opens a new worker: nothing is lost, nothing is taken twice (and the claim fence and the
 * connector's dedup on the job id stay in force). The scan also finishes purge clean-ups a crashed
 * process left, and marks the process alive for GET /queue's `is_running`.
 */
export class SendWorkers {
  private readonly workers = new Map<string, Worker<SendJobData>>();
  /** When each phone last had jobs (or its worker last worked), as seen by this process. */
  private readonly lastBusy = new Map<string, number>();
  private timer?: NodeJS.Timeout;
  private scanning: Promise<void> = Promise.resolve();
  private stopped = false;
  /** Jobs finished since the last scan, for the record. */
  private finished: { phone_id: string; job_id: string }[] = [];
  /** Whether the last try to record them failed (logged once per outage). */
  private recordFailing = false;
  private readonly tracer = trace.getTracer('queue-worker');
  private readonly paces: PhonePaces;
  /** The pace of each phone this process runs a worker for. */
  private readonly paceOf = new Map<string, Pace>();
  /** A phone served by one process at a time: held while this process runs its worker. */
  readonly leases: PhoneLeases;

  constructor(
    private readonly queues: SendQueues,
    private readonly processor: SendProcessor,
    private readonly purger: QueuePurger,
    private readonly options: SendWorkersOptions,
    private readonly logger: Logger,
  ) {
    this.paces = options.paces ?? new PhonePaces({ intervalMs: options.intervalMs, cloudApiRatePerSecond: 1 });
    // expires after three scans (at least 5 s): a process that died hands its phones over that much later
    this.leases = new PhoneLeases(queues.redis, options.namespace, Math.max(5_000, 3 * options.scanMs));
  }

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

  /** Tells the record what finished; kept for the next scan when Postgres cannot take it now. */
  private async flushFinished(): Promise<void> {
    const batch = this.finished.splice(0);
    if (!batch.length || !this.options.record) return;
    try {
      await this.options.record.finished(batch);
      if (this.recordFailing) this.logger.info({ jobs: batch.length }, 'recording finished send jobs works again');
      this.recordFailing = false;
    } catch (err) {
      this.finished.unshift(...batch);
      if (!this.recordFailing) this.logger.warn({ err, jobs: batch.length }, 'recording finished send jobs failed; retrying every scan');
      this.recordFailing = true;
    }
  }

  private async scan(): Promise<void> {
    const { redis } = this.queues;
    const { namespace, scanMs, idleMs } = this.options;
    await this.renewLeases();
    await this.flushFinished();
    await redis.set(workersAliveKey(namespace), String(Date.now()), 'PX', Math.max(10_000, 3 * scanMs));
    const phones = await redis.smembers(phonesWithQueuesKey(namespace));
    const counts = await countPhoneQueues(redis, namespace, phones);
    for (const [phoneId, c] of counts) {
      if (this.stopped) return;
      const now = Date.now();
      if (!isEmptyQueue(c)) this.lastBusy.set(phoneId, now);
      if (!this.workers.has(phoneId)) {
        if (!isEmptyQueue(c)) await this.startWorker(phoneId);
      } else if (idleMs > 0 && isEmptyQueue(c) && now - (this.lastBusy.get(phoneId) ?? 0) >= idleMs) {
        await this.closeWorker(phoneId);
      }
      if (c.trash) await this.purger.sweep(phoneId);
    }
  }

  /** First in every scan: a phone this process no longer holds (it stalled past the lease) is left to its new holder. */
  private async renewLeases(): Promise<void> {
    for (const [phoneId, pace] of this.paceOf) {
      if (!pace.exclusive || (await this.leases.hold(phoneId))) continue;
      this.logger.warn({ phone_id: phoneId }, 'another process serves this phone now; its send worker here is closed');
      await this.closeWorker(phoneId);
    }
  }

  /** Graceful: a job the worker took meanwhile finishes first; jobs it did not take stay queued. */
  private async closeWorker(phoneId: string): Promise<void> {
    const worker = this.workers.get(phoneId);
    if (!worker) return;
    await worker.close();
    this.workers.delete(phoneId);
    this.lastBusy.delete(phoneId);
    if (this.paceOf.get(phoneId)?.exclusive) await this.leases.release(phoneId);
    this.paceOf.delete(phoneId);
    this.logger.debug({ phone_id: phoneId, idle_ms: this.options.idleMs }, 'idle send worker closed');
  }

  private async startWorker(phoneId: string): Promise<void> {
    let pace: Pace;
    try {
      pace = await this.paces.of(phoneId);
    } catch (err) {
      // the phone's connector cannot be asked now (phones service or database away): tried again next scan
      outageLog(this.logger).warn("a phone's send pace is not known yet; its worker waits", { err, phone_id: phoneId });
      return;
    }
    // another process serves it alone (a fast pace); taken over once that process gives it up or dies
    if (pace.exclusive && !(await this.leases.hold(phoneId))) return;
    // several in flight: one per chat, in queue order (a linked device's one at a time needs none of it)
    const turns = pace.concurrency > 1 ? new ChatTurns() : undefined;
    const worker = new Worker<SendJobData>(
      sendQueueName(phoneId),
      (job) =>
        this.tracer.startActiveSpan(
          'queue.send',
          { attributes: { 'job.id': job.id ?? '', 'phone.id': phoneId } },
          extractJobTrace(job.data.trace),
          async (span) => {
            try {
              return await this.processor.process(job, undefined, { jitter: pace.jitter, turns });
            } catch (error) {
              span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
              throw error;
            } finally {
              span.end();
            }
          },
        ),
      {
        connection: this.options.connection,
        prefix: bullPrefix(this.options.namespace),
        concurrency: pace.concurrency,
        limiter: pace.limiter,
        lockDuration: this.options.lockMs,
        stalledInterval: this.options.lockMs,
        maxStalledCount: 5,
        autorun: false,
      },
    );
    if (turns) keepPutBackOrder(worker, this.queues.redis, this.queues.keys(phoneId));
    worker.on('error', (err) => outageLog(this.logger).warn('send worker error', { err, phone_id: phoneId }));
    const busy = () => this.lastBusy.set(phoneId, Date.now());
    worker.on('active', busy);
    worker.on('completed', busy);
    worker.on('failed', busy);
    worker.on('completed', (job) => this.finished.push({ phone_id: phoneId, job_id: job.id as string }));
    worker.on('failed', (job) => job?.finishedOn && this.finished.push({ phone_id: phoneId, job_id: job.id as string }));
    worker.on(
      'failed',
      (job, err) =>
        job && this.logger.warn({ job_id: job.id, phone_id: phoneId, attempt: job.attemptsMade, err: err.message }, 'send job failed'),
    );
    this.workers.set(phoneId, worker);
    this.paceOf.set(phoneId, pace);
    if (pace.kind !== 'linked-device')
      this.logger.info({ phone_id: phoneId, pace: pace.kind, limiter: pace.limiter, concurrency: pace.concurrency }, 'send worker started');
    await worker.waitUntilReady();
    void worker.run();
  }

  /** The phones this process runs a worker for now. */
  get phones(): string[] {
    return [...this.workers.keys()];
  }

  /** Stops taking jobs and waits for the ones under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.scanning;
    await Promise.all([...this.workers.values()].map((w) => w.close()));
    // the phones served alone are free for another process at once
    await Promise.all(
      [...this.paceOf].filter(([, p]) => p.exclusive).map(([phoneId]) => this.leases.release(phoneId).catch(() => undefined)),
    );
    await this.flushFinished();
  }
}
