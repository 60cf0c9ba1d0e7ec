import { requiredPhone } from '../../phones/required-phone';
import type { QueueStatus, QueueStatusRequest } from '@mapi/contracts';
import { workersAliveKey } from '../../queues/keys';
import type { SendQueues } from '../../queues/send-queues';

/**
 * GET /queue: counts of the x-phone phone's queue. `is_running`: a send-worker process is alive (it
 * serves the phone's queue now, or opens its worker within QUEUE_PHONE_SCAN_MS of a job's arrival; a
 * phone's worker is closed while its queue stays empty).
 */
export class GetQueueStatus {
  constructor(private readonly queues: SendQueues) {}

  async execute({ ctx }: QueueStatusRequest): Promise<QueueStatus> {
    const phoneId = requiredPhone(ctx);
    const q = this.queues.queue(phoneId);
    // Every process that runs send workers marks itself alive at each scan (send-workers.ts), so the
    // mark answers for the phone's own worker too, without a Redis CLIENT LIST per request.
    const [c, alive] = await Promise.all([
      q.getJobCounts('active', 'completed', 'failed', 'delayed', 'prioritized', 'waiting'),
      this.queues.redis.exists(workersAliveKey(this.queues.options.namespace)),
    ]);
    const waiting = (c.waiting ?? 0) + (c.prioritized ?? 0);
    const delayed = c.delayed ?? 0;
    return {
      phone_id: phoneId,
      active: c.active ?? 0,
      failed: c.failed ?? 0,
      completed: c.completed ?? 0,
      is_running: alive > 0,
      pending: waiting + delayed,
      waiting,
      delayed,
    };
  }
}
