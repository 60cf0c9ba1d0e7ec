import { randomUUID } from 'node:crypto';
import type { Logger } from '@mapi/platform';
import type { SendQueues } from '../queues/send-queues';
import type { RecordedJob, SendRecord } from './send-record';

export interface QueueRebuildOptions {
  namespace: string;
  /** Jobs accepted longer ago than this are not queued again (the queue would fail them). */
  maxWaitMs: number;
  /** Finished and purged jobs stay on record this long (as BullMQ keeps finished jobs). */
  keepFinishedMs: number;
}

/**
 * Set in Redis, to the server's run_id, once its queues match the record: missing, or another run_id,
 * means Redis is new, restarted (empty, or from a snapshot older than its last writes) or failed over.
 */
export const recordMarkerKey = (namespace: string) => `${namespace}:sendq:record`;
const lockKey = (namespace: string) => `${namespace}:sendq:rebuild-lock`;
const LOCK_MS = 120_000;
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

/**
 * Keeps Redis' send queues whole (docs/decisions/0077): every replica checks the marker each scan;
 * when it is gone or stale (Redis restarted empty or from an old snapshot, failed over to a replica
 * that missed writes, or is new) one replica, under a lock, queues again every job the record holds as pending — same ids,
 * numbers and data, so a job that Redis still had is left alone and a job that was already sent is
 * answered by the connector's dedup on its id — and sets the marker. It also prunes the record.
 */
export class QueueRebuild {
  private lastPrune = 0;

  constructor(
    private readonly queues: SendQueues,
    private readonly record: SendRecord,
    private readonly options: QueueRebuildOptions,
    private readonly logger: Logger,
  ) {}

  /**
   * Rebuilds when the marker is missing or names another server run, or when this replica's own put
   * failed after its jobs went on record; answers the jobs queued again (null: nothing to do, or
   * another replica does it).
   */
  async ensure(): Promise<number | null> {
    const forced = this.queues.takeBehindRecord();
    try {
      const queued = await this.rebuildIfNeeded(forced);
      if (forced && queued === null) this.queues.markBehindRecord(); // held by another replica's lock: check again next scan
      return queued;
    } catch (err) {
      if (forced) this.queues.markBehindRecord();
      throw err;
    }
  }

  private async rebuildIfNeeded(forced: boolean): Promise<number | null> {
    const { redis } = this.queues;
    const { namespace } = this.options;
    const runId = /run_id:(\w+)/.exec(await redis.info('server'))?.[1] ?? 'unknown';
    if (!forced && (await redis.get(recordMarkerKey(namespace))) === runId) return null;
    const token = randomUUID();
    if ((await redis.set(lockKey(namespace), token, 'PX', LOCK_MS, 'NX')) !== 'OK') return null;
    try {
      const started = Date.now();
      const [pending, lastSeqs] = await Promise.all([this.record.pending(this.options.maxWaitMs), this.record.lastSeqs()]);
      const byPhone = new Map<string, RecordedJob[]>();
      for (const j of pending) {
        const list = byPhone.get(j.phone_id);
        if (list) list.push(j);
        else byPhone.set(j.phone_id, [j]);
      }
      for (const [phoneId, jobs] of byPhone) await this.queues.restore(phoneId, jobs, lastSeqs.get(phoneId) ?? 0);
      await redis.set(recordMarkerKey(namespace), runId);
      if (pending.length)
        this.logger.warn(
          {
            jobs: pending.length,
            phones: byPhone.size,
            ms: Date.now() - started,
            why: forced ? 'a put failed' : 'marker missing or stale',
          },
          'send queues were missing from Redis; queued again from the record',
        );
      else this.logger.info({}, 'send queue record marker set');
      return pending.length;
    } finally {
      await redis.eval(RELEASE, 1, lockKey(namespace), token);
    }
  }

  /** At most every 10 minutes: finished and purged jobs past their keep, and jobs no queue waits for any more. */
  async pruneNow(now = Date.now()): Promise<number> {
    if (now - this.lastPrune < 600_000) return 0;
    this.lastPrune = now;
    return this.record.prune(this.options.keepFinishedMs, this.options.maxWaitMs);
  }
}
