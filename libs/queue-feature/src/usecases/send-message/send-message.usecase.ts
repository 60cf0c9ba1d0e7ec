import { randomUUID } from 'node:crypto';
import { performedByOf, sendUniqueId, type RequestContext, type SendAnswer, type SendMessageRequest } from '@mapi/contracts';
import { IdempotencyStore } from '../../idempotency/idempotency-store';
import type { SendReach } from '../../phones/member-reach';
import type { PhoneGate } from '../../phones/phone-gate';
import { toOutgoingContent } from '../../queues/outgoing-content';
import type { SendQueues } from '../../queues/send-queues';

/** The phone that sends to a chat when the caller named none (the chats service's rule). */
export type ChoosePhone = (ctx: RequestContext, chatId: string) => Promise<string>;

/** POST /message/send: one job in the phone's queue, answered at once. */
export class SendMessage {
  constructor(
    private readonly queues: SendQueues,
    private readonly choosePhone: ChoosePhone,
    private readonly idempotency: IdempotencyStore,
    private readonly reach: SendReach,
    /** The 24-hour window of a Cloud API phone's chat, asked before a free-form message is queued (absent: not asked). */
    private readonly gate?: Pick<PhoneGate, 'requireOpenWindow'>,
  ) {}

  async execute({ ctx, body, headers }: SendMessageRequest): Promise<SendAnswer> {
    const key = IdempotencyStore.validate(headers?.['idempotency-key']);
    await this.reach(ctx, [body.chat_id]);
    return this.idempotency.run(ctx.org_id, 'send', key, { phone: ctx.phone?.phone_id ?? null, body }, async () => {
      const phoneId = ctx.phone?.phone_id ?? (await this.choosePhone(ctx, body.chat_id));
      if (!body.template) await this.gate?.requireOpenWindow(phoneId, body.chat_id);
      const id = key ? IdempotencyStore.jobIdFor(ctx.org_id, 'send', key, 0) : randomUUID();
      const [position] = await this.queues.add(
        ctx.org_id,
        phoneId,
        [{ id, chat_id: body.chat_id, content: toOutgoingContent(body), performed_by: performedByOf(ctx) }],
        null,
      );
      return { queue_id: id, queue_position: String(position), unique_id: sendUniqueId(phoneId, id) };
    });
  }
}
