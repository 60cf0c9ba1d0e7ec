import { randomUUID } from 'node:crypto';
import { DELETE_TRASH, PURGE_ALL, REMOVE_UNSENT } from './fence-scripts';
import type { SendQueues } from './send-queues';

/** Fences outlive any job they can concern (finished jobs are kept at most QUEUE_KEEP_FINISHED_S). */
const FENCE_TTL_MS = 45 * 86_400_000;
const BATCH = 1_000;

/**
 * Removes a phone's unsent jobs (spec 4.5) at a cost that does not grow with the queue's length per
 * job removed, and fences what it covers so that a worker picking a job up at that moment never
 * submits it (fence-scripts.ts). The record (send-record.ts) is told after Redis, so a failed purge
 * is repeated whole by the caller's retry.
 */
export class QueuePurger {
  constructor(private readonly queues: SendQueues) {}

  private get redis() {
    return this.queues.redis;
  }

  /** mode queue_ids: O(k log n) for k ids. */
  async purgeIds(phoneId: string, ids: string[]): Promise<number> {
    const k = this.queues.keys(phoneId);
    const u = k.unsent;
    let removed = 0;
    for (let i = 0; i < ids.length; i += BATCH) {
      removed += await REMOVE_UNSENT.run<number>(
        this.redis,
        [u.prioritized, u.delayed, u.wait, u.paused, k.fenceIds],
        [`${k.base}:`, FENCE_TTL_MS, '1', ...ids.slice(i, i + BATCH)],
      );
    }
    await this.queues.options.record?.purgedIds(phoneId, ids);
    return removed;
  }

  /** mode broadcast: the broadcast is fenced first, then its indexed jobs removed in batches. */
  async purgeBroadcast(phoneId: string, broadcastId: string): Promise<number> {
    const k = this.queues.keys(phoneId);
    const u = k.unsent;
    await this.redis.pipeline().sadd(k.fenceBroadcasts, broadcastId).pexpire(k.fenceBroadcasts, FENCE_TTL_MS).exec();
    const ids = await this.redis.smembers(k.broadcast(broadcastId));
    let removed = 0;
    for (let i = 0; i < ids.length; i += BATCH) {
      removed += await REMOVE_UNSENT.run<number>(
        this.redis,
        [u.prioritized, u.delayed, u.wait, u.paused, k.fenceIds],
        [`${k.base}:`, FENCE_TTL_MS, '0', ...ids.slice(i, i + BATCH)],
      );
    }
    await this.queues.options.record?.purgedBroadcast(phoneId, broadcastId);
    return removed;
  }

  /** mode all: O(1) (fence + rename); the renamed jobs' hashes are deleted right after, in batches. */
  async purgeAll(phoneId: string): Promise<void> {
    const k = this.queues.keys(phoneId);
    const u = k.unsent;
    await PURGE_ALL.run(
      this.redis,
      [u.prioritized, u.delayed, u.wait, u.paused, k.fenceAll, k.seq, k.trash],
      [`${k.base}:purged:${randomUUID()}`],
    );
    await this.redis.pexpire(k.fenceAll, FENCE_TTL_MS);
    await this.queues.options.record?.purgedAll(phoneId);
  }

  /** Deletes the job hashes of everything purge-all renamed away; returns how many keys it emptied. */
  async sweep(phoneId: string): Promise<number> {
    const k = this.queues.keys(phoneId);
    const trash = await this.redis.smembers(k.trash);
    for (const key of trash) {
      while ((await DELETE_TRASH.run<number>(this.redis, [key, k.trash], [`${k.base}:`, BATCH])) > 0) {
        // batches, so other clients of this Redis are served between them
      }
    }
    return trash.length;
  }
}
