import type { PrismaClient } from '@mapi/db';
import type { SendJobData } from '../queues/send-job';

/** A job as the record keeps it: enough to queue it again exactly as it was. */
export interface RecordedJob {
  phone_id: string;
  job_id: string;
  org_id: string;
  seq: number;
  chat_id: string;
  broadcast_id: string | null;
  data: SendJobData;
  not_before: Date | null;
}

/** What `SendRecord.add` did: the ids to queue in Redis, and those of them it inserted. */
export interface RecordAdded {
  queue: Set<string>;
  inserted: string[];
}

/**
 * The send queues' record in Postgres (docs/decisions/0077): every accepted job is written here
 * before it is queued in Redis, marked when it finished (sent, or failed for good) or was purged, and
 * pruned once it can no longer be wanted. Redis holds the working copy; `pending()` is what a
 * rebuild queues again when Redis came back without it.
 */
export class SendRecord {
  constructor(private readonly prisma: PrismaClient) {}

  /**
   * Records the jobs; answers the ids to queue — the new ones, and those on record still pending (a
   * repeat of a request whose process died between the record and Redis) — and which of them this
   * call inserted. A job that finished or was purged is never queued again.
   */
  async add(jobs: readonly RecordedJob[]): Promise<RecordAdded> {
    if (!jobs.length) return { queue: new Set(), inserted: [] };
    const rows = jobs.map((j) => ({ ...j, seq: String(j.seq), not_before: j.not_before?.toISOString() ?? null }));
    // The outer SELECT reads the table as it was before the INSERT (one snapshot): its rows are the repeats.
    const queue = await this.prisma.$queryRaw<{ job_id: string; inserted: boolean }[]>`
      WITH input AS (SELECT * FROM json_populate_recordset(NULL::send_jobs, ${JSON.stringify(rows)}::json)),
      inserted AS (
        INSERT INTO send_jobs (phone_id, job_id, org_id, seq, chat_id, broadcast_id, data, not_before)
        SELECT phone_id, job_id, org_id, seq, chat_id, broadcast_id, data, not_before FROM input
        ON CONFLICT (phone_id, job_id) DO NOTHING
        RETURNING job_id)
      SELECT job_id, true AS inserted FROM inserted
      UNION ALL
      SELECT j.job_id, false AS inserted FROM send_jobs j JOIN input i ON i.phone_id = j.phone_id AND i.job_id = j.job_id
       WHERE j.finished_at IS NULL AND j.purged_at IS NULL
         AND NOT EXISTS (SELECT 1 FROM send_purges p WHERE p.phone_id = j.phone_id AND p.purged_at >= j.created_at)`;
    return { queue: new Set(queue.map((r) => r.job_id)), inserted: queue.filter((r) => r.inserted).map((r) => r.job_id) };
  }

  /** Takes back jobs this process just recorded and Redis refused before any reached it: the request failed, nothing was accepted. */
  async withdraw(phoneId: string, ids: readonly string[]): Promise<void> {
    if (!ids.length) return;
    await this.prisma
      .$executeRaw`DELETE FROM send_jobs WHERE phone_id = ${phoneId} AND job_id = ANY(${ids as string[]}) AND finished_at IS NULL`;
  }

  /** The organization of a phone with jobs on record (null: none), to ask the phones service about the phone. */
  async orgOf(phoneId: string): Promise<string | null> {
    const [row] = await this.prisma.$queryRaw<{ org_id: string }[]>`SELECT org_id FROM send_jobs WHERE phone_id = ${phoneId} LIMIT 1`;
    return row?.org_id ?? null;
  }

  /** Jobs that left the queue for good: sent, or failed past their attempts. */
  async finished(jobs: readonly { phone_id: string; job_id: string }[]): Promise<void> {
    if (!jobs.length) return;
    await this.prisma.$executeRaw`
      UPDATE send_jobs j SET finished_at = now()
        FROM json_populate_recordset(NULL::send_jobs, ${JSON.stringify(jobs)}::json) f
       WHERE j.phone_id = f.phone_id AND j.job_id = f.job_id AND j.finished_at IS NULL`;
  }

  async purgedIds(phoneId: string, ids: readonly string[]): Promise<void> {
    if (!ids.length) return;
    await this.prisma
      .$executeRaw`UPDATE send_jobs SET purged_at = now() WHERE phone_id = ${phoneId} AND job_id = ANY(${ids as string[]}) AND purged_at IS NULL AND finished_at IS NULL`;
  }

  async purgedBroadcast(phoneId: string, broadcastId: string): Promise<void> {
    await this.prisma
      .$executeRaw`UPDATE send_jobs SET purged_at = now() WHERE phone_id = ${phoneId} AND broadcast_id = ${broadcastId} AND purged_at IS NULL AND finished_at IS NULL`;
  }

  /** A purge of everything: one row, not one per job (it stays O(1)); jobs recorded before it are not queued again. */
  async purgedAll(phoneId: string): Promise<void> {
    await this.prisma.$executeRaw`INSERT INTO send_purges (phone_id) VALUES (${phoneId}) ON CONFLICT DO NOTHING`;
  }

  /**
   * What a rebuild queues again: jobs neither finished nor purged (one by one, by broadcast, or by a
   * later purge of everything), accepted within `maxWaitMs` (older ones the queue would fail
   * anyway) or scheduled for later; by phone, in the phone's order.
   */
  async pending(maxWaitMs: number): Promise<RecordedJob[]> {
    const since = new Date(Date.now() - maxWaitMs);
    const rows = await this.prisma.$queryRaw<(Omit<RecordedJob, 'seq'> & { seq: bigint })[]>`
      SELECT j.phone_id, j.job_id, j.org_id, j.seq, j.chat_id, j.broadcast_id, j.data, j.not_before
        FROM send_jobs j
       WHERE j.finished_at IS NULL AND j.purged_at IS NULL
         AND (j.created_at >= ${since} OR j.not_before >= ${since})
         AND NOT EXISTS (SELECT 1 FROM send_purges p WHERE p.phone_id = j.phone_id AND p.purged_at >= j.created_at)
       ORDER BY j.phone_id, j.seq`;
    return rows.map((r) => ({ ...r, seq: Number(r.seq) }));
  }

  /** The highest sequence number each phone's jobs reached (a rebuilt counter must not go back). */
  async lastSeqs(): Promise<Map<string, number>> {
    const rows = await this.prisma.$queryRaw<
      { phone_id: string; seq: bigint }[]
    >`SELECT phone_id, max(seq) AS seq FROM send_jobs GROUP BY phone_id`;
    return new Map(rows.map((r) => [r.phone_id, Number(r.seq)]));
  }

  /** Removes what no rebuild can want: finished or purged long enough ago, or older than any wait. */
  async prune(keepMs: number, maxWaitMs: number): Promise<number> {
    const done = new Date(Date.now() - keepMs);
    const stale = new Date(Date.now() - Math.max(keepMs, maxWaitMs));
    const jobs = await this.prisma.$executeRaw`
      DELETE FROM send_jobs
       WHERE (finished_at < ${done} OR purged_at < ${done} OR created_at < ${stale})
         AND (not_before IS NULL OR not_before < ${stale})`;
    await this.prisma.$executeRaw`DELETE FROM send_purges WHERE purged_at < ${stale}`;
    return jobs;
  }
}
