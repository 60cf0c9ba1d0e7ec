import { requiredPhone } from '../../phones/required-phone';
import { Errors, type BroadcastStatus, type BroadcastStatusRequest } from '@mapi/contracts';
import type { Job } from 'bullmq';
import { mapJob } from '../../queues/map-job';
import type { SendJobData } from '../../queues/send-job';
import type { SendQueues } from '../../queues/send-queues';

const MAX_LISTED = 1_000;

/** GET /queue/broadcast: progress of one broadcast of the x-phone phone. */
export class GetBroadcastStatus {
  constructor(private readonly queues: SendQueues) {}

  async execute({ ctx, query }: BroadcastStatusRequest): Promise<BroadcastStatus> {
    const phoneId = requiredPhone(ctx);
    const ids = await this.queues.redis.smembers(this.queues.keys(phoneId).broadcast(query.broadcast_id));
    if (!ids.length) throw Errors.notFound('No broadcast with this broadcast_id on this phone');
    const q = this.queues.queue(phoneId);
    const found = (await Promise.all(ids.map((id) => q.getJob(id)))).filter((j): j is Job<SendJobData> => Boolean(j));
    const states = await Promise.all(found.map((j) => j.getState()));
    const jobs = found.map((j, i) => mapJob(j, states[i])).sort((a, b) => (a.addedTimestamp ?? 0) - (b.addedTimestamp ?? 0));
    const count = (s: string) => jobs.filter((j) => j.status === s).length;
    // A job whose purge fence stopped it at the last moment is failed with the purge reason.
    const fencedLate = jobs.filter((j) => j.status === 'failed' && j.failed_reason === 'purged before submission').length;
    return {
      broadcast_id: query.broadcast_id,
      phone_id: phoneId,
      total: ids.length,
      pending: count('waiting') + count('delayed'),
      active: count('active'),
      completed: count('completed'),
      failed: count('failed') - fencedLate,
      purged: ids.length - found.length + fencedLate,
      jobs: jobs.slice(0, MAX_LISTED),
    };
  }
}
