import { requiredPhone } from '../../phones/required-phone';
import { randomUUID } from 'node:crypto';
import { performedByOf, sendUniqueId, type BroadcastAnswer, type BroadcastMessageRequest } from '@mapi/contracts';
import { IdempotencyStore } from '../../idempotency/idempotency-store';
import type { SendReach } from '../../phones/member-reach';
import { fillTemplate, toOutgoingContent } from '../../queues/outgoing-content';
import type { SendQueues } from '../../queues/send-queues';

/** POST /message/broadcast: one job per chat in the x-phone phone's queue, under one broadcast_id. */
export class BroadcastMessage {
  constructor(
    private readonly queues: SendQueues,
    private readonly idempotency: IdempotencyStore,
    private readonly reach: SendReach,
  ) {}

  async execute({ ctx, body, headers }: BroadcastMessageRequest): Promise<BroadcastAnswer> {
    const key = IdempotencyStore.validate(headers?.['idempotency-key']);
    const phoneId = requiredPhone(ctx);
    await this.reach(ctx, body.chat_ids);
    return this.idempotency.run(ctx.org_id, 'broadcast', key, { phone: phoneId, body }, async () => {
      const broadcastId = key ? IdempotencyStore.jobIdFor(ctx.org_id, 'broadcast', key, -1) : randomUUID();
      const values = new Map((body.variables ?? []).map((v) => [v.chat_id, v.values]));
      const start = body.scheduled_at ? Date.parse(body.scheduled_at) : Date.now();
      const stepMs = (body.delay ?? 0) * 1_000;
      const performedBy = performedByOf(ctx);
      const jobs = body.chat_ids.map((chatId, i) => ({
        id: key ? IdempotencyStore.jobIdFor(ctx.org_id, 'broadcast', key, i) : randomUUID(),
        chat_id: chatId,
        content: toOutgoingContent(body, body.message === undefined ? undefined : fillTemplate(body.message, values.get(chatId))),
        notBefore: start + i * stepMs,
        performed_by: performedBy,
      }));
      const positions = await this.queues.add(ctx.org_id, phoneId, jobs, broadcastId);
      return {
        broadcast_id: broadcastId,
        jobs: jobs.map((j, i) => ({
          chat_id: j.chat_id,
          queue_id: j.id,
          queue_position: String(positions[i]),
          unique_id: sendUniqueId(phoneId, j.id),
        })),
      };
    });
  }
}
