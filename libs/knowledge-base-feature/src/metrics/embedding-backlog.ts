import type { Queue } from 'bullmq';
import type { PrismaClient } from '@mapi/db';
import { CachedReading } from '@mapi/platform';

export const EMBEDDING_JOB_STATES = ['waiting', 'delayed', 'active', 'failed'] as const;

export interface EmbeddingBacklogReading extends Record<(typeof EMBEDDING_JOB_STATES)[number], number> {
  /** Entries without a stored embedding (pending: not found by search yet). */
  pending_entries: number;
}

/**
 * The embedding backlog: the embedding queue's jobs by state, from BullMQ's own counts (waiting =
 * wait + prioritized, due and not yet taken; delayed = waiting for a retry; failed =
 * attempts used up, kept 7 days), and the entries still unembedded, counted in Postgres over the
 * partial index of pending rows (`knowledge_base_entries_pending_idx`: O(pending entries), which
 * the worker keeps near zero). One reading is kept `cacheMs` and shared by concurrent scrapes.
 */
export class EmbeddingBacklog {
  private readonly reading: CachedReading<EmbeddingBacklogReading>;

  constructor(
    private readonly queue: Pick<Queue, 'getJobCounts'>,
    private readonly prisma: Pick<PrismaClient, '$queryRaw'>,
    cacheMs = 1_000,
  ) {
    this.reading = new CachedReading(() => this.count(), cacheMs);
  }

  read(): Promise<EmbeddingBacklogReading> {
    return this.reading.read();
  }

  private async count(): Promise<EmbeddingBacklogReading> {
    const [c, rows] = await Promise.all([
      this.queue.getJobCounts('wait', 'prioritized', 'delayed', 'active', 'failed'),
      this.prisma.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM knowledge_base_entries WHERE embedding IS NULL`,
    ]);
    const n = (k: string) => Number(c[k] ?? 0);
    return {
      waiting: n('wait') + n('prioritized'),
      delayed: n('delayed'),
      active: n('active'),
      failed: n('failed'),
      pending_entries: Number(rows[0]?.n ?? 0),
    };
  }
}
