import type { Redis } from 'ioredis';
import { PhoneQueueKeys } from '../queues/keys';

const PHONES_PER_PIPELINE = 500;

/**
 * When the next due job of each phone became due (ms since the epoch): the job a worker takes next
 * (the head of BullMQ's prioritized set — jobs are added with one priority, so it is FIFO — or of
 * the wait/paused lists), due at its `timestamp` + `delay` (added, or its not_before). A retried
 * job counts from when it was first due: the figure says how late a message is. Two pipelined
 * rounds (the heads, then their hashes) for the given phones; phones without a due job are absent.
 */
export async function oldestDueAt(redis: Redis, namespace: string, phoneIds: readonly string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (let i = 0; i < phoneIds.length; i += PHONES_PER_PIPELINE) {
    const batch = phoneIds.slice(i, i + PHONES_PER_PIPELINE);
    const heads = redis.pipeline();
    for (const phoneId of batch) {
      const k = new PhoneQueueKeys(namespace, phoneId);
      // BullMQ pushes new jobs on the left of wait/paused and takes them from the right.
      heads.zrange(k.unsent.prioritized, 0, 0).lindex(k.unsent.wait, -1).lindex(k.unsent.paused, -1);
    }
    const replies = (await heads.exec()) ?? [];
    const found: { phoneId: string; jobKeys: string[] }[] = [];
    batch.forEach((phoneId, n) => {
      const k = new PhoneQueueKeys(namespace, phoneId);
      const ids = [0, 1, 2].flatMap((j) => {
        const [error, result] = replies[n * 3 + j] ?? [new Error('no reply')];
        if (error) throw error;
        const id = Array.isArray(result) ? result[0] : result;
        return typeof id === 'string' ? [k.job(id)] : [];
      });
      if (ids.length) found.push({ phoneId, jobKeys: ids });
    });
    if (!found.length) continue;
    const hashes = redis.pipeline();
    for (const f of found) for (const key of f.jobKeys) hashes.hmget(key, 'timestamp', 'delay');
    const fields = (await hashes.exec()) ?? [];
    let r = 0;
    for (const f of found) {
      let oldest = Infinity;
      for (let j = 0; j < f.jobKeys.length; j++, r++) {
        const [error, result] = fields[r] ?? [new Error('no reply')];
        if (error) throw error;
        const [timestamp, delay] = (result as (string | null)[]).map(Number);
        if (Number.isFinite(timestamp) && timestamp > 0) oldest = Math.min(oldest, timestamp + (Number.isFinite(delay) ? delay : 0));
      }
      if (oldest !== Infinity) out.set(f.phoneId, oldest);
    }
  }
  return out;
}
