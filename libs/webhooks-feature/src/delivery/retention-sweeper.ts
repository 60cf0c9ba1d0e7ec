import type { Pool } from 'pg';
import { PeriodicTask } from '@mapi/platform';
import type { Logger } from 'pino';
import type { Clock } from './clock';

export interface RetentionOptions {
  /** Rows older than this are deleted (log rows by attempted_at, settled deliveries by their last change, events by arrival). */
  retentionMs: number;
  /** Time between sweeps. */
  intervalMs: number;
  /** Rows per DELETE statement, so no sweep holds long locks or builds a huge transaction. */
  batchSize?: number;
}

export interface SweepCounts {
  attempts: number;
  deliveries: number;
  events: number;
  buckets: number;
}

/**
 * Retention of the delivery log: deletes, in batches, what is older than the retention period —
 * attempts (the log), settled deliveries, events no unsettled delivery still needs (so redelivery and
 * replay reach back as far as the retention period), and idle per-endpoint buckets. Every replica may
 * sweep: batches are taken with SKIP LOCKED, so concurrent sweeps share the work.
 */
export class RetentionSweeper {
  private readonly task: PeriodicTask;

  constructor(
    private readonly pool: Pool,
    private readonly clock: Clock,
    private readonly options: RetentionOptions,
    logger: Logger,
  ) {
    this.task = new PeriodicTask(
      async () => {
        const counts = await this.sweep();
        if (counts.attempts + counts.deliveries + counts.events > 0) logger.info({ ...counts }, 'webhook retention sweep');
      },
      {
        intervalMs: options.intervalMs,
        firstDelayMs: Math.min(options.intervalMs, 5_000),
        onError: (err) => logger.error({ err }, 'webhook retention sweep failed'),
      },
    );
  }

  start(): void {
    this.task.start();
  }

  stop(): Promise<void> {
    return this.task.stop();
  }

  /** One sweep: everything older than now − retention. */
  async sweep(): Promise<SweepCounts> {
    const cutoff = new Date(this.clock.now().getTime() - this.options.retentionMs);
    return {
      attempts: await this.deleteAll(
        `DELETE FROM webhook_attempts WHERE id IN (
           SELECT id FROM webhook_attempts WHERE attempted_at < $1 LIMIT $2 FOR UPDATE SKIP LOCKED)`,
        cutoff,
      ),
      // Settled (next_attempt_at null) and last changed before the cutoff; created_at ≤ updated_at lets the BRIN index prune.
      deliveries: await this.deleteAll(
        `DELETE FROM webhook_deliveries WHERE id IN (
           SELECT id FROM webhook_deliveries
           WHERE created_at < $1 AND updated_at < $1 AND next_attempt_at IS NULL LIMIT $2 FOR UPDATE SKIP LOCKED)`,
        cutoff,
      ),
      events: await this.deleteAll(
        `DELETE FROM webhook_events WHERE id IN (
           SELECT e.id FROM webhook_events e
           WHERE e.received_at < $1
             AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.next_attempt_at IS NOT NULL)
           LIMIT $2 FOR UPDATE OF e SKIP LOCKED)`,
        cutoff,
      ),
      buckets: await this.deleteAll(
        `DELETE FROM webhook_endpoint_buckets WHERE endpoint IN (
           SELECT endpoint FROM webhook_endpoint_buckets WHERE refilled_at < $1 LIMIT $2 FOR UPDATE SKIP LOCKED)`,
        cutoff,
      ),
    };
  }

  private async deleteAll(sql: string, cutoff: Date): Promise<number> {
    const batch = this.options.batchSize ?? 5_000;
    let total = 0;
    for (;;) {
      const res = await this.pool.query(sql, [cutoff, batch]);
      total += res.rowCount ?? 0;
      if ((res.rowCount ?? 0) < batch || this.task.isStopped) return total;
    }
  }
}
