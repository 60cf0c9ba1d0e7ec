import type { PrismaClient } from '@mapi/db';
import { DueWorkLoop } from '@mapi/events';
import type { Logger } from 'pino';
import { FLAG_CHANNEL } from './apply-flag-facts';
import { runFlagJob, type FlagJobDeps, type FlagJobRow, type JobEnd } from './run-flag-job';

export interface FlagWorkerOptions {
  batch: number;
  leaseMs: number;
  idlePollMs: number;
  fallbackPollMs: number;
  listenUrl?: string;
  /** Called with each job's end (metrics, tests). */
  onEnded?: (job: FlagJobRow, end: JobEnd) => void;
}

/**
 * Claims due flag jobs with a lease (FOR UPDATE SKIP LOCKED, committed at once: a model request is not held in
 * a transaction), runs them (runFlagJob) side by side, and records each end. A worker killed mid-job leaves
 * its jobs pending: claimed again once the lease passes, and the chats service's flag is idempotent (an
 * already flagged message emits nothing; `unless_flagged_before` never re-flags one someone cleared), so a
 * job is never skipped and its message.flagged fires once.
 */
export async function claimFlagJobs(prisma: PrismaClient, limit: number, leaseMs: number): Promise<FlagJobRow[]> {
  return prisma.$queryRaw<FlagJobRow[]>`
    WITH due AS (
      SELECT job_id FROM analytics_flag_jobs
      WHERE state = 'pending' AND due_at <= now() AND (lease_until IS NULL OR lease_until <= now())
      ORDER BY due_at
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED)
    UPDATE analytics_flag_jobs j SET lease_until = now() + make_interval(secs => ${leaseMs / 1000}::float8), attempts = j.attempts + 1
    FROM due WHERE j.job_id = due.job_id
    RETURNING j.job_id::text, j.org_id::text, j.action, j.rule_id::text, j.phone_id, j.chat_id, j.message_id, j.message_at,
              j.response_id, j.response_at, j.reason, j.body, j.attempts`;
}

/** Records a job's end: done / failed for good (its text dropped), or pending again after a pause. */
export async function endFlagJob(prisma: PrismaClient, job: FlagJobRow, end: JobEnd): Promise<void> {
  if (end.state === 'retry') {
    await prisma.$executeRaw`
      UPDATE analytics_flag_jobs SET lease_until = now() + make_interval(secs => ${end.retryInMs / 1000}::float8), outcome = ${end.outcome}
      WHERE job_id = ${job.job_id}::uuid AND state = 'pending'`;
    return;
  }
  const reason = 'reason' in end && end.reason !== undefined ? end.reason : job.reason;
  await prisma.$executeRaw`
    UPDATE analytics_flag_jobs
    SET state = ${end.state}, outcome = ${end.outcome}, reason = ${reason}, body = NULL, lease_until = NULL, done_at = now()
    WHERE job_id = ${job.job_id}::uuid AND state = 'pending'`;
}

/** The flag worker of every replica: claims due jobs, runs them, sleeps until the next is due (or announced). */
export class FlagWorker {
  private readonly loop: DueWorkLoop;

  constructor(
    private readonly deps: FlagJobDeps,
    private readonly logger: Logger,
    private readonly options: FlagWorkerOptions,
  ) {
    this.loop = new DueWorkLoop(() => this.round(), logger, {
      idlePollMs: options.idlePollMs,
      fallbackPollMs: options.fallbackPollMs,
      listenUrl: options.listenUrl,
      channel: FLAG_CHANNEL,
      what: 'running flag jobs',
    });
  }

  start(): Promise<void> {
    return this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** A job was armed in this process, due at `at` (epoch ms). */
  armed(at: number): void {
    this.loop.announce(at);
  }

  private async round(): Promise<{ more: boolean; nextDueInMs: number | null }> {
    const jobs = await claimFlagJobs(this.deps.prisma, this.options.batch, this.options.leaseMs);
    await Promise.all(
      jobs.map(async (job) => {
        let end: JobEnd;
        try {
          end = await runFlagJob(this.deps, job);
        } catch (err) {
          this.logger.error({ err, job_id: job.job_id }, 'a flag job failed; it will be tried again');
          end = { state: 'retry', outcome: (err as Error).message.slice(0, 500), retryInMs: 5_000 };
        }
        await endFlagJob(this.deps.prisma, job, end);
        this.options.onEnded?.(job, end);
      }),
    );
    const [next] = await this.deps.prisma.$queryRaw<{ ms: number | null }[]>`
      SELECT (EXTRACT(EPOCH FROM (min(GREATEST(due_at, COALESCE(lease_until, due_at))) - now())) * 1000)::float8 AS ms
      FROM analytics_flag_jobs WHERE state = 'pending'`;
    return { more: jobs.length === this.options.batch, nextDueInMs: next?.ms ?? null };
  }
}
