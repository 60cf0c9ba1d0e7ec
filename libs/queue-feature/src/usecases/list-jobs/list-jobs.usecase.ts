import type { JobsReach } from '../../phones/member-reach';
import { requiredPhone } from '../../phones/required-phone';
import type { Job, JobType } from 'bullmq';
import type { ListJobsRequest, QueueJob, QueueJobStatus } from '@mapi/contracts';
import { mapJob } from '../../queues/map-job';
import type { SendJobData } from '../../queues/send-job';
import type { SendQueues } from '../../queues/send-queues';

const STATES: Record<QueueJobStatus, JobType[]> = {
  waiting: ['prioritized', 'wait'],
  delayed: ['delayed'],
  active: ['active'],
  completed: ['completed'],
  failed: ['failed'],
};

/** How far back a member's listing reads each state of the phone's queue before narrowing it to their reach. */
export const MEMBER_SCAN_PER_STATE = 5_000;

/**
 * GET /queue/jobs and POST /message/queues: the x-phone phone's jobs, newest first, filtered. For a
 * member (role member) only jobs of chats within their labels and overrides, paged after that
 * narrowing, over the newest MEMBER_SCAN_PER_STATE jobs of each state.
 */
export class ListJobs {
  constructor(
    private readonly queues: SendQueues,
    private readonly reach: JobsReach = async () => null,
  ) {}

  async execute({ ctx, query, body }: ListJobsRequest): Promise<QueueJob[]> {
    const f = { offset: 0, limit: 100, ...(query ?? {}), ...(body ?? {}) };
    const phoneId = requiredPhone(ctx);
    const q = this.queues.queue(phoneId);
    let jobs: { job: Job<SendJobData>; state: string }[];
    const { queue_id: queueId, broadcast_id: broadcastId } = f;
    if (queueId || broadcastId) {
      const ids = queueId ? [queueId] : await this.queues.redis.smembers(this.queues.keys(phoneId).broadcast(broadcastId as string));
      // State first, then the hash: BullMQ writes a job's result in the same script that moves it to
      // completed, so a job read after its state can never be "completed" without its result (read
      // the other way round, a job finishing in between showed completed with unique_id null).
      const states = await Promise.all(ids.map((id) => q.getJobState(id)));
      const found = await Promise.all(ids.map((id) => q.getJob(id)));
      jobs = found
        .map((job, i) => ({ job, state: states[i] as string }))
        .filter(
          (j): j is { job: Job<SendJobData>; state: string } =>
            !!j.job && j.state !== 'unknown' && (!broadcastId || j.job.data.broadcast_id === broadcastId),
        );
    } else {
      const types: JobType[] = f.status ? STATES[f.status] : Object.values(STATES).flat();
      // BullMQ pages each state separately: take enough of each, then order and page the union.
      const last = ctx.member?.role === 'member' ? Math.max(MEMBER_SCAN_PER_STATE, f.offset + f.limit) - 1 : f.offset + f.limit - 1;
      const perType = await Promise.all(
        types.map(async (t) => (await q.getJobs([t], 0, last, false)).map((job) => ({ job, state: t as string }))),
      );
      jobs = perType.flat().filter((j) => j.job);
    }
    const inReach = await this.reach(
      ctx,
      phoneId,
      jobs.map(({ job }) => job.data.chat_id),
    );
    if (inReach) jobs = jobs.filter(({ job }) => inReach.has(job.data.chat_id));
    const mapped = jobs.map(({ job, state }) => mapJob(job, state)).filter((j) => !f.status || j.status === f.status);
    mapped.sort((a, b) => (b.addedTimestamp ?? 0) - (a.addedTimestamp ?? 0) || (a.id < b.id ? 1 : -1));
    return mapped.slice(f.offset, f.offset + f.limit);
  }
}
