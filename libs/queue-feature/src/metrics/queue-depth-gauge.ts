import type { Redis } from 'ioredis';
import { phonesWithQueuesKey } from '../queues/keys';
import { countPhoneQueues } from './phone-queue-counts';

/**
 * Where the queue service serves its depth on the health server (HEALTH_PORT), and the fields of
 * the answer. deploy/components/keda reads it with KEDA's metrics-api scaler; test/deploy checks
 * the ScaledObject's URL path and value field against these.
 */
export const QUEUE_DEPTH_PATH = '/metrics/queue-depth';
export const QUEUE_DEPTH_FIELDS = ['waiting', 'delayed', 'active', 'phones', 'phones_waiting'] as const;

export type QueueDepth = Record<(typeof QUEUE_DEPTH_FIELDS)[number], number> & { measured_at: string };

/**
 * The send queue's depth across every phone: the jobs due and not yet taken by a worker
 * (`waiting`), the scheduled ones (`delayed`), the ones workers hold (`active`), how many phone
 * queues there are and how many have jobs waiting (`phones_waiting`). Counted from BullMQ's own
 * keys for every phone in the set of phones with queues (countPhoneQueues: O(phones)). Answers
 * are kept `cacheMs` and concurrent reads share one count, so a polling autoscaler costs Redis
 * at most one count per `cacheMs`.
 */
export class QueueDepthGauge {
  private last?: { at: number; value: Promise<QueueDepth> };

  constructor(
    private readonly redis: Redis,
    private readonly namespace: string,
    private readonly cacheMs = 1_000,
  ) {}

  read(): Promise<QueueDepth> {
    const now = Date.now();
    if (this.last && now - this.last.at < this.cacheMs) return this.last.value;
    const value = this.count();
    this.last = { at: now, value };
    value.catch(() => {
      if (this.last?.value === value) this.last = undefined; // a failure is not cached
    });
    return value;
  }

  private async count(): Promise<QueueDepth> {
    const phones = await this.redis.smembers(phonesWithQueuesKey(this.namespace));
    const counts = [...(await countPhoneQueues(this.redis, this.namespace, phones)).values()];
    const sum = (f: (c: (typeof counts)[number]) => number) => counts.reduce((total, c) => total + f(c), 0);
    return {
      waiting: sum((c) => c.waiting),
      delayed: sum((c) => c.delayed),
      active: sum((c) => c.active),
      phones: counts.length,
      phones_waiting: sum((c) => (c.waiting > 0 ? 1 : 0)),
      measured_at: new Date().toISOString(),
    };
  }
}
