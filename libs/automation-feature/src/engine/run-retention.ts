import type { PrismaClient } from '@mapi/db';
import { PeriodicTask } from '@mapi/platform';
import type { Logger } from 'pino';

export interface RunRetentionOptions {
  /** Finished runs older than this (by finished_at) are deleted, with their steps. */
  retentionMs: number;
  /** Time between sweeps. */
  intervalMs: number;
  /** Runs per DELETE statement. */
  batchSize: number;
}

/**
 * Retention of the run log: every `intervalMs` (a timer, nothing in between) deletes finished runs
 * (completed, failed, skipped: never a running one, however old, such as one inside a long delay)
 * whose finished_at is older than the retention, oldest first, `batchSize` runs per statement with
 * their steps in the same statement (a data-modifying CTE: a run never outlives or loses its steps
 * half-way). The batch is taken FOR UPDATE SKIP LOCKED over the partial index of finished runs, so
 * replicas sweeping at once share the work and a sweep reads only what it deletes.
 */
export class RunRetention {
  private readonly task: PeriodicTask;

  constructor(
    private readonly prisma: PrismaClient,
    logger: Logger,
    private readonly options: RunRetentionOptions,
  ) {
    this.task = new PeriodicTask(
      async () => {
        const runs = await this.sweep();
        if (runs) logger.info({ runs }, 'workflow run retention sweep');
      },
      {
        intervalMs: options.intervalMs,
        firstDelayMs: Math.min(options.intervalMs, 60_000),
        onError: (err) => logger.error({ err }, 'workflow run retention sweep failed'),
      },
    );
  }

  start(): void {
    this.task.start();
  }

  stop(): Promise<void> {
    return this.task.stop();
  }

  /** One sweep: every finished run older than now − retention (by the database's clock). Answers how many runs went. */
  async sweep(): Promise<number> {
    const secs = this.options.retentionMs / 1000;
    let total = 0;
    for (;;) {
      const [row] = await this.prisma.$queryRaw<{ runs: number }[]>`
        WITH doomed AS (
          SELECT run_id FROM automation_runs
          WHERE status <> 'running' AND finished_at < now() - make_interval(secs => ${secs}::float8)
          ORDER BY finished_at
          LIMIT ${this.options.batchSize}
          FOR UPDATE SKIP LOCKED),
        steps AS (DELETE FROM automation_steps WHERE run_id IN (SELECT run_id FROM doomed)),
        runs AS (DELETE FROM automation_runs WHERE run_id IN (SELECT run_id FROM doomed) RETURNING 1)
        SELECT count(*)::int AS runs FROM runs`;
      total += row.runs;
      if (row.runs < this.options.batchSize || this.task.isStopped) return total;
    }
  }
}
