import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { injectJobTrace, bullPrefix, isDependencyUnavailable } from '@mapi/platform';
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

/** ioredis refusing a command it never wrote (the connection was not writable): Redis has none of it. */
const NOT_SENT = /Stream isn't writeable/;

/** A put into Redis that failed, after `jobsPut` of its jobs went in. */
class PutFailed extends Error {
  constructor(
    override readonly cause: unknown,
    readonly jobsPut: number,
  ) {
    super(cause instanceof Error ? cause.message : String(cause));
  }
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
  /** Set when jobs went on record but Redis could not take them: the next rebuild check queues them. */
  private behindRecord = false;

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
        performed_by: j.performed_by ?? null,
      },
      not_before: j.notBefore ? new Date(j.notBefore) : null,
    }));
    const record = this.options.record;
    const recorded = record ? await record.add(queued) : null;
    const toPut = recorded ? queued.filter((j) => recorded.queue.has(j.job_id)) : queued;
    try {
      await this.put(phoneId, toPut, broadcastId);
    } catch (err) {
      if (!record || !recorded || !(err instanceof PutFailed) || !isDependencyUnavailable(err.cause))
        throw err instanceof PutFailed ? err.cause : err;
      // Redis went away between the numbering and the put. Refused before any job reached it: the
      // request fails and what it recorded is taken back. Otherwise what is on record is accepted,
      // and this replica's next rebuild check (QueueRebuild.ensure) queues the rest.
      if (err.jobsPut === 0 && NOT_SENT.test(String((err.cause as Error).message))) {
        await record.withdraw(phoneId, recorded.inserted).catch(() => (this.behindRecord = true));
        if (toPut.length > recorded.inserted.length) this.behindRecord = true; // repeats still pending
        throw err.cause;
      }
      this.behindRecord = true;
    }
    return jobs.map((_, i) => ahead + i + 1);
  }

  /** Whether a put failed since the last call (and clears it): Redis may lack jobs the record holds. */
  takeBehindRecord(): boolean {
    const was = this.behindRecord;
    this.behindRecord = false;
    return was;
  }

  /** Marks Redis as possibly lacking recorded jobs again (a rebuild that did not run). */
  markBehindRecord(): void {
    this.behindRecord = true;
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
    try {
      for (const [broadcastId, list] of byBroadcast) await this.put(phoneId, list, broadcastId);
    } catch (err) {
      throw err instanceof PutFailed ? err.cause : err;
    }
  }

  /** Into BullMQ (and the broadcast's index), in chunks; a failure says how many jobs went in before it. */
  private async put(phoneId: string, jobs: readonly RecordedJob[], broadcastId: string | null): Promise<void> {
    const k = this.keys(phoneId);
    const now = Date.now();
    const chunk = 1_000;
    let jobsPut = 0;
    try {
      const pipeline = this.redis.pipeline().sadd(phonesWithQueuesKey(this.options.namespace), phoneId);
      if (broadcastId && jobs.length)
        pipeline
          .sadd(k.broadcast(broadcastId), ...jobs.map((j) => j.job_id))
          .expire(k.broadcast(broadcastId), this.options.keepFinishedSeconds + 30 * 86_400);
      await pipeline.exec();
      for (let i = 0; i < jobs.length; i += chunk) {
        const part = jobs.slice(i, i + chunk);
        await this.queue(phoneId).addBulk(part.map((j) => this.bullJob(j, now)));
        jobsPut += part.length;
      }
    } catch (err) {
      throw new PutFailed(err, jobsPut);
    }
  }

  private bullJob(j: RecordedJob, now: number) {
    return {
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
    };
  }

  async close(): Promise<void> {
    await Promise.all([...this.queues.values()].map((q) => q.close()));
    this.queues.clear();
  }
}
