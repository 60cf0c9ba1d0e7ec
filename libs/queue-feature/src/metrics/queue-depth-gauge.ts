import { CachedReading } from '@mapi/platform';
import type { Redis } from 'ioredis';
import { phonesWithQueuesKey } from '../queues/keys';
import { countPhoneQueues, isEmptyQueue, type PhoneQueueCounts } from './phone-queue-counts';
import { oldestDueAt } from './phone-queue-oldest';

/** One phone's queue, for the per-phone metrics (phones whose queue is empty are left out). */
export interface PhoneDepth extends Omit<PhoneQueueCounts, 'trash'> {
  phone_id: string;
  /** When its next due job became due (ms since the epoch); absent when nothing is due. */
  oldest_due_at?: number;
}

export interface QueueDepth {
  waiting: number;
  delayed: number;
  active: number;
  /** Phones with a queue. */
  phones: number;
  /** Phones with jobs due and not yet taken by a worker (what the KEDA trigger scales on). */
  phones_waiting: number;
  by_phone: PhoneDepth[];
  measured_at: number;
}

/**
 * The send queue's depth across every phone and per phone: the jobs due and not yet taken by a
 * worker (`waiting`), the scheduled ones (`delayed`), the ones workers hold (`active`), how many
 * phone queues there are and how many have jobs waiting (`phones_waiting`), and for each phone
 * with jobs its counts and when its next due job became due. Counted from BullMQ's own keys for
 * every phone in the set of phones with queues (countPhoneQueues: O(phones), then oldestDueAt for
 * the phones with due jobs). Answers are kept `cacheMs` and concurrent reads share one count, so
 * scrapes by several Prometheus replicas cost Redis at most one count per `cacheMs`.
 */
export class QueueDepthGauge {
  private readonly reading: CachedReading<QueueDepth>;

  constructor(
    private readonly redis: Redis,
    private readonly namespace: string,
    cacheMs = 1_000,
  ) {
    this.reading = new CachedReading(() => this.count(), cacheMs);
  }

  read(): Promise<QueueDepth> {
    return this.reading.read();
  }

  private async count(): Promise<QueueDepth> {
    const phones = await this.redis.smembers(phonesWithQueuesKey(this.namespace));
    const counts = await countPhoneQueues(this.redis, this.namespace, phones);
    const due = [...counts].filter(([, c]) => c.waiting > 0).map(([phoneId]) => phoneId);
    const oldest = await oldestDueAt(this.redis, this.namespace, due);
    const byPhone: PhoneDepth[] = [...counts]
      .filter(([, c]) => !isEmptyQueue(c))
      .map(([phoneId, c]) => ({
        phone_id: phoneId,
        waiting: c.waiting,
        delayed: c.delayed,
        active: c.active,
        ...(oldest.has(phoneId) ? { oldest_due_at: oldest.get(phoneId) } : {}),
      }));
    const sum = (f: (c: PhoneQueueCounts) => number) => [...counts.values()].reduce((total, c) => total + f(c), 0);
    return {
      waiting: sum((c) => c.waiting),
      delayed: sum((c) => c.delayed),
      active: sum((c) => c.active),
      phones: counts.size,
      phones_waiting: due.length,
      by_phone: byPhone,
      measured_at: Date.now(),
    };
  }
}
