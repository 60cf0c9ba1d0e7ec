import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { injectJobTrace, bullPrefix } from '@mapi/platform';
import type { RecordedJob, SendRecord } from '../record/send-record';
import { PhoneQueueKeys, phonesWithQueuesKey, sendQueueName } from './keys';
import type { NewSendJob, SendJobData } from './send-job';

export interface SendQueuesOptions {
  namespace: string;
  attempts: number;
  backoffMs: number;
  keepFinishedSeconds: number;
  /** The jobs' record in Postgres (the service always has one; tests of Redis alone may leave it out). */
  record?: SendRecord;
}

/** Raises a phone's sequence counter to at least ARGV[1] (a rebuilt queue must not number jobs again from 1). */
const RAISE_SEQ = `local v = tonumber(redis.call('GET', KEYS[1]) or '0') if v < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], ARGV[1]) end return 1`;

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
      q = new Queue<SendJobData>(sendQueueName(phoneId), { connection: this.redis, prefix: bullPrefix(this.options.namespace) });
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
   * Adds the jobs in order, numbered from the phone's sequence, indexed under their broadcast, and
   * recorded in Postgres first: a job is in Redis only once it is on record, and an id on record that
   * finished or was purged is not queued again (a pending one is: BullMQ keeps an id it has once).
   * Returns each job's position in the phone's line (1 = next).
   */
  async add(orgId: string, phoneId: string, jobs: NewSendJob[], broadcastId: string | null): Promise<number[]> {
    const k = this.keys(phoneId);
    const ahead = await this.depth(phoneId);
    const last = await this.redis.incrby(k.seq, jobs.length);
    const trace = injectJobTrace();
    const queued: RecordedJob[] = jobs.map((j, i) => ({
      phone_id: phoneId,
      job_id: j.id,
      org_id: orgId,
      seq: last - jobs.length + i + 1,
      chat_id: j.chat_id,
      broadcast_id: broadcastId,
      data: {
        org_id: orgId,
        phone_id: phoneId,
        chat_id: j.chat_id,
        content: j.content,
        body: j.content.text ?? null,
        broadcast_id: broadcastId,
        seq: last - jobs.length + i + 1,
        trace,
      },
      not_before: j.notBefore ? new Date(j.notBefore) : null,
    }));
    const fresh = this.options.record ? await this.options.record.add(queued) : null;
    await this.put(phoneId, fresh ? queued.filter((j) => fresh.has(j.job_id)) : queued, broadcastId);
    return jobs.map((_, i) => ahead + i + 1);
  }

  /**
   * Queues recorded jobs again as they were (same ids, numbers and data) after Redis lost them, and
   * raises the phone's counter past them. A job Redis still has is left as it is.
   */
  async restore(phoneId: string, jobs: readonly RecordedJob[], lastSeq: number): Promise<void> {
    await this.redis.eval(RAISE_SEQ, 1, this.keys(phoneId).seq, String(lastSeq));
    const byBroadcast = new Map<string | null, RecordedJob[]>();
    for (const j of jobs) {
      const list = byBroadcast.get(j.broadcast_id);
      if (list) list.push(j);
      else byBroadcast.set(j.broadcast_id, [j]);
    }
    for (const [broadcastId, list] of byBroadcast) await this.put(phoneId, list, broadcastId);
  }

  /** Into BullMQ (and the broadcast's index), in chunks. */
  private async put(phoneId: string, jobs: readonly RecordedJob[], broadcastId: string | null): Promise<void> {
    const k = this.keys(phoneId);
    const now = Date.now();
    const pipeline = this.redis.pipeline().sadd(phonesWithQueuesKey(this.options.namespace), phoneId);
    if (broadcastId && jobs.length)
      pipeline
        .sadd(k.broadcast(broadcastId), ...jobs.map((j) => j.job_id))
        .expire(k.broadcast(broadcastId), this.options.keepFinishedSeconds + 30 * 86_400);
    await pipeline.exec();
    const chunk = 1_000;
    for (let i = 0; i < jobs.length; i += chunk) {
      await this.queue(phoneId).addBulk(
        jobs.slice(i, i + chunk).map((j) => ({
          name: 'send',
          data: j.data,
          opts: {
            jobId: j.job_id,
            priority: 1,
            delay: j.not_before && j.not_before.getTime() > now ? j.not_before.getTime() - now : undefined,
            attempts: this.options.attempts,
            backoff: { type: 'exponential', delay: this.options.backoffMs },
            removeOnComplete: { age: this.options.keepFinishedSeconds },
            removeOnFail: { age: this.options.keepFinishedSeconds },
          },
        })),
      );
    }
  }

  async close(): Promise<void> {
    await Promise.all([...this.queues.values()].map((q) => q.close()));
    this.queues.clear();
  }
}
