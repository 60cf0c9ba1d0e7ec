import type { Logger } from '@mapi/platform';
import type { PurgeConfirmation, PurgeQueuesRequest } from '@mapi/contracts';
import type { PhoneGate } from '../../phones/phone-gate';
import type { QueuePurger } from '../../queues/queue-purger';

/**
 * POST /message/queues/purge (spec 4.5, 2.5); the older DELETE /queue/purge is LegacyPurgeQueue. The phone must be
 * named (or be the token's only phone), the organization's, and connected. When this answers, no job
 * it covered will be sent.
 */
export class PurgeQueue {
  constructor(
    private readonly gate: PhoneGate,
    private readonly purger: QueuePurger,
    private readonly logger: Logger,
  ) {}

  async execute({ ctx, body }: PurgeQueuesRequest): Promise<PurgeConfirmation> {
    const phoneId = this.gate.purgeTarget(ctx);
    await this.gate.requireConnected(ctx, phoneId);
    if (body?.queue_ids) {
      const removed = await this.purger.purgeIds(phoneId, body.queue_ids);
      this.logger.info({ phone_id: phoneId, mode: 'queue_ids', removed }, 'queue purged');
      return { purged: true, mode: 'queue_ids', queue_ids: body.queue_ids };
    }
    if (body?.broadcast_id) {
      const removed = await this.purger.purgeBroadcast(phoneId, body.broadcast_id);
      this.logger.info({ phone_id: phoneId, mode: 'broadcast', removed }, 'queue purged');
      return { purged: true, mode: 'broadcast', broadcast_id: body.broadcast_id };
    }
    await this.purger.purgeAll(phoneId);
    this.logger.info({ phone_id: phoneId, mode: 'all' }, 'queue purged');
    void this.purger
      .sweep(phoneId)
      .catch((err) => this.logger.warn({ err, phone_id: phoneId }, "purge clean-up failed; the workers' scan finishes it"));
    return { purged: true, mode: 'all' };
  }
}
