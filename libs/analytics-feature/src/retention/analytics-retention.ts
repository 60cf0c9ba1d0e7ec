import type { PrismaClient } from '@mapi/db';
import { PeriodicTask } from '@mapi/platform';
import type { Logger } from 'pino';

export interface AnalyticsRetentionOptions {
  /** Ended flag jobs (by done_at) and closed SLA waits (by answered_at) older than this are deleted. */
  retentionMs: number;
  /** Time between sweeps. */
  intervalMs: number;
  /** Rows per DELETE statement. */
  batchSize: number;
}

export interface SweepCount {
  flag_jobs: number;
  sla_waits: number;
}

/**
 * Retention of the analytics service's job tables (docs/services/analytics.md "Retention"): every
 * `intervalMs` deletes the flag jobs that ended (done, failed, cancelled: never a pending one, however old)
 * and the SLA waits that are closed (answered: cancelled in time, or breached and replied to; never a pending
 * wait nor a breach still open) longer ago than the retention, oldest first, `batchSize` rows per statement,
 * each statement its own transaction. The batch is taken FOR UPDATE SKIP LOCKED over a partial index of the
 * ended rows, so replicas sweeping at once share the work, a sweep reads only what it deletes and holds no
 * long lock; the intakes and workers only ever change pending or open rows, which the sweep never takes.
 */
export class AnalyticsRetention {
  private readonly task: PeriodicTask;

  constructor(
    private readonly prisma: PrismaClient,
    logger: Logger,
    private readonly options: AnalyticsRetentionOptions,
  ) {
    this.task = new PeriodicTask(
      async () => {
        const n = await this.sweep();
        if (n.flag_jobs || n.sla_waits) logger.info(n, 'analytics retention sweep');
      },
      {
        intervalMs: options.intervalMs,
        firstDelayMs: Math.min(options.intervalMs, 60_000),
        onError: (err) => logger.error({ err }, 'analytics retention sweep failed'),
      },
    );
  }

  start(): void {
    this.task.start();
  }

  stop(): Promise<void> {
    return this.task.stop();
  }

  /** One sweep (by the database's clock): how many flag jobs and SLA waits went. */
  async sweep(): Promise<SweepCount> {
    return { flag_jobs: await this.drain(() => this.flagJobs()), sla_waits: await this.drain(() => this.slaWaits()) };
  }

  private async drain(batch: () => Promise<number>): Promise<number> {
    let total = 0;
    for (;;) {
      const n = await batch();
      total += n;
      if (n < this.options.batchSize || this.task.isStopped) return total;
    }
  }

  private async flagJobs(): Promise<number> {
    const [row] = await this.prisma.$queryRaw<{ n: number }[]>`
      WITH doomed AS (
        SELECT job_id FROM analytics_flag_jobs
        WHERE state <> 'pending' AND done_at < now() - make_interval(secs => ${this.options.retentionMs / 1000}::float8)
        ORDER BY done_at
        LIMIT ${this.options.batchSize}
        FOR UPDATE SKIP LOCKED),
      gone AS (DELETE FROM analytics_flag_jobs j USING doomed WHERE j.job_id = doomed.job_id RETURNING 1)
      SELECT count(*)::int AS n FROM gone`;
    return row.n;
  }

  private async slaWaits(): Promise<number> {
    const [row] = await this.prisma.$queryRaw<{ n: number }[]>`
      WITH doomed AS (
        SELECT timer_id FROM analytics_sla_timers
        WHERE answered_at IS NOT NULL AND answered_at < now() - make_interval(secs => ${this.options.retentionMs / 1000}::float8)
        ORDER BY answered_at
        LIMIT ${this.options.batchSize}
        FOR UPDATE SKIP LOCKED),
      gone AS (DELETE FROM analytics_sla_timers t USING doomed WHERE t.timer_id = doomed.timer_id RETURNING 1)
      SELECT count(*)::int AS n FROM gone`;
    return row.n;
  }
}
