import { requiredPhone } from '../../phones/required-phone';
import type { QueueStatus, QueueStatusRequest } from '@mapi/contracts';
import type { SendQueues } from '../../queues/send-queues';

/** GET /queue: counts of the x-phone phone's queue. */
export class GetQueueStatus {
  constructor(private readonly queues: SendQueues) {}

  async execute({ ctx }: QueueStatusRequest): Promise<QueueStatus> {
    const phoneId = requiredPhone(ctx);
    const q = this.queues.queue(phoneId);
    const [c, workers] = await Promise.all([q.getJobCounts('active', 'completed', 'failed', 'delayed', 'prioritized', 'waiting'), q.getWorkersCount()]);
    const waiting = (c.waiting ?? 0) + (c.prioritized ?? 0);
    const delayed = c.delayed ?? 0;
    return { phone_id: phoneId, active: c.active ?? 0, failed: c.failed ?? 0, completed: c.completed ?? 0, is_running: workers > 0, pending: waiting + delayed, waiting, delayed };
  }
}
