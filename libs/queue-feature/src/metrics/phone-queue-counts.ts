import type { Redis } from 'ioredis';
import { PhoneQueueKeys } from '../queues/keys';

/** One phone queue's jobs by what they wait for, read straight from BullMQ's keys. */
export interface PhoneQueueCounts {
  /** Due and not yet taken by a worker: prioritized + wait + paused. */
  waiting: number;
  /** Scheduled for later, or waiting for a retry. */
  delayed: number;
  /** Taken by a worker (being paced or submitted). */
  active: number;
  /** A purge of everything left job hashes to delete (the worker scan sweeps them). */
  trash: boolean;
}

const PHONES_PER_PIPELINE = 500;

export const isEmptyQueue = (c: PhoneQueueCounts) => c.waiting + c.delayed + c.active === 0;

/**
 * The counts of many phones' queues at O(1) per phone: ZCARD/LLEN of BullMQ's own sorted sets and
 * lists (the same structures a worker takes jobs from, so the counts cannot drift from the truth,
 * unlike a counter kept beside them), pipelined in batches of 500 phones (6 commands each).
 * Keys a purge of everything renamed away are not counted: those jobs are gone.
 */
export async function countPhoneQueues(
  redis: Redis,
  namespace: string,
  phoneIds: readonly string[],
): Promise<Map<string, PhoneQueueCounts>> {
  const out = new Map<string, PhoneQueueCounts>();
  for (let i = 0; i < phoneIds.length; i += PHONES_PER_PIPELINE) {
    const batch = phoneIds.slice(i, i + PHONES_PER_PIPELINE);
    const pipeline = redis.pipeline();
    for (const phoneId of batch) {
      const k = new PhoneQueueKeys(namespace, phoneId);
      pipeline.zcard(k.unsent.prioritized).llen(k.unsent.wait).llen(k.unsent.paused).zcard(k.unsent.delayed).llen(k.active).exists(k.trash);
    }
    const replies = (await pipeline.exec()) ?? [];
    batch.forEach((phoneId, n) => {
      const value = (j: number) => {
        const [error, result] = replies[n * 6 + j] ?? [new Error('no reply')];
        if (error) throw error;
        return Number(result);
      };
      out.set(phoneId, { waiting: value(0) + value(1) + value(2), delayed: value(3), active: value(4), trash: value(5) > 0 });
    });
  }
  return out;
}
