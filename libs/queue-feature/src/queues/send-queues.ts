import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { injectJobTrace } from '@mapi/platform';
import { PhoneQueueKeys, phonesWithQueuesKey, queuePrefix, sendQueueName } from './keys';
import type { NewSendJob, SendJobData } from './send-job';

export interface SendQueuesOptions {
  namespace: string;
  attempts: number;
  backoffMs: number;
  keepFinishedSeconds: number;
}

/**
 * The phones' send queues (one BullMQ queue per phone, so a phone's purge never touches another's
 * jobs), sharing one Redis connection. Jobs are added with a priority: BullMQ keeps them in a sorted
 * set (FIFO within one priority), where removing one job costs O(log n) instead of the wait list's O(n).
 */
export class SendQueues {
  private readonly queues = new Map<string, Queue<SendJobData>>();

  constructor(
    readonly redis: Redis,
    readonly options: SendQueuesOptions,
  ) {}

  keys(phoneId: string): PhoneQueueKeys {
    return new PhoneQueueKeys(this.options.namespace, phoneId);
  }

  queue(phoneId: string): Queue<SendJobData> {
    let q = this.queues.get(phoneId);
    if (!q) {
      q = new Queue<SendJobData>(sendQueueName(phoneId), { connection: this.redis, prefix: queuePrefix(this.options.namespace) });
      this.queues.set(phoneId, q);
    }
    return q;
  }

  /** Jobs ahead in line: not yet submitted or being submitted now. */
  async depth(phoneId: string): Promise<number> {
    const k = this.keys(phoneId);
    const [[, prioritized], [, wait], [, active]] = (await this.redis
      .pipeline()
      .zcard(k.unsent.prioritized)
      .llen(k.unsent.wait)
      .llen(k.active)
      .exec()) as [Error | null, number][];
    return prioritized + wait + active;
  }

  /**
   * Adds the jobs in order, numbered from the phone's sequence, indexed under their broadcast.
   * Returns each job's position in the phone's line (1 = next). Adding an id that exists is a no-op.
   */
  async add(orgId: string, phoneId: string, jobs: NewSendJob[], broadcastId: string | null): Promise<number[]> {
    const k = this.keys(phoneId);
    const ahead = await this.depth(phoneId);
    const last = await this.redis.incrby(k.seq, jobs.length);
    const trace = injectJobTrace();
    const now = Date.now();
    const pipeline = this.redis.pipeline().sadd(phonesWithQueuesKey(this.options.namespace), phoneId);
    if (broadcastId) pipeline.sadd(k.broadcast(broadcastId), ...jobs.map((j) => j.id)).expire(k.broadcast(broadcastId), this.options.keepFinishedSeconds + 30 * 86_400);
    await pipeline.exec();
    const chunk = 1_000;
    for (let i = 0; i < jobs.length; i += chunk) {
      await this.queue(phoneId).addBulk(
        jobs.slice(i, i + chunk).map((j, n) => ({
          name: 'send',
          data: {
            org_id: orgId,
            phone_id: phoneId,
            chat_id: j.chat_id,
            content: j.content,
            body: j.content.text ?? null,
            broadcast_id: broadcastId,
            seq: last - jobs.length + i + n + 1,
            trace,
          },
          opts: {
            jobId: j.id,
            priority: 1,
            delay: j.notBefore && j.notBefore > now ? j.notBefore - now : undefined,
            attempts: this.options.attempts,
            backoff: { type: 'exponential', delay: this.options.backoffMs },
            removeOnComplete: { age: this.options.keepFinishedSeconds },
            removeOnFail: { age: this.options.keepFinishedSeconds },
          },
        })),
      );
    }
    return jobs.map((_, i) => ahead + i + 1);
  }

  async close(): Promise<void> {
    await Promise.all([...this.queues.values()].map((q) => q.close()));
    this.queues.clear();
  }
}
