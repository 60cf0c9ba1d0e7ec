import type { LegacyPurgeQueueRequest } from '@mapi/contracts';
import type { PurgeQueue } from '../purge-queue/purge-queue.usecase';

/**
 * DELETE /queue/purge, the older form of POST /message/queues/purge: `queue_id` (one or many) or
 * `broadcast_id`, none for the whole queue; the same purge, answered without content.
 */
export class LegacyPurgeQueue {
  constructor(private readonly purge: PurgeQueue) {}

  async execute({ ctx, body, headers }: LegacyPurgeQueueRequest): Promise<null> {
    const ids = body?.queue_id === undefined ? undefined : Array.isArray(body.queue_id) ? body.queue_id : [body.queue_id];
    await this.purge.execute({
      ctx,
      headers,
      body: ids ? { queue_ids: ids } : body?.broadcast_id ? { broadcast_id: body.broadcast_id } : undefined,
    });
    return null;
  }
}
