import type { FlagMessageRequest, Message } from '@mapi/contracts';
import type { Prisma, PrismaClient } from '@mapi/db';
import { writeEvents } from '@mapi/events';
import { messageInReach } from '../../messages/acting-message';
import { mapMessage } from '../../messages/map-message';
import type { MessageRefRepository } from '../../repositories/message-ref-repository';

/**
 * chats.v1.message.flag (PUT /message/{message_id}/flag, workflows, the analytics service's flagging):
 * flags or clears the flag of the message within reach, on every copy the organization holds (phones
 * sharing a group hold one each: a flag is the organization's, as hosted), and emits message.flagged /
 * message.unflagged once, in one transaction. Already in that state: answered as it is, no event. With
 * `unless_flagged_before`, a message whose flag was ever set (flag_metadata present) is not flagged again.
 */
export class FlagMessage {
  constructor(
    private readonly messages: MessageRefRepository,
    private readonly prisma: PrismaClient,
  ) {}

  async execute({ ctx, params, body }: FlagMessageRequest): Promise<Message> {
    const row = await messageInReach(this.messages, ctx, params.message_id);
    if (Boolean(row.flag_status) === body.flag) return mapMessage(row);
    const before = (
      row.flag_metadata && typeof row.flag_metadata === 'object' && !Array.isArray(row.flag_metadata) ? row.flag_metadata : {}
    ) as Prisma.JsonObject;
    if (body.flag && body.unless_flagged_before && before.status !== undefined) return mapMessage(row);
    const actor = body.flagged_by ?? ctx.member?.email ?? ctx.token_id;
    const now = new Date().toISOString();
    const reason = body.reason === undefined ? {} : { reason: body.reason };
    const rule = body.rule_id === undefined ? {} : { rule_id: body.rule_id };
    const response = body.response
      ? { ...body.response, response_type: 'message' }
      : { response_type: 'manual', response_timestamp: now, response_email: actor };
    const metadata: Prisma.InputJsonValue = body.flag
      ? { status: true, flagged_by: actor, flagged_at: now, ...reason, ...rule }
      : { ...before, status: false, ...response };
    return this.prisma.$transaction(async (tx) => {
      // only copies still in the other state: two callers racing change the flag (and emit) once
      const { count } = await tx.message.updateMany({
        where: {
          org_id: ctx.org_id,
          chat_id: row.chat_id,
          unique_id: row.unique_id,
          ...(body.flag ? { OR: [{ flag_status: false }, { flag_status: null }] } : { flag_status: true }),
        },
        data: { flag_status: body.flag, flag_metadata: metadata },
      });
      const updated = await tx.message.findFirstOrThrow({
        where: { org_id: ctx.org_id, phone_id: row.phone_id, message_id: row.message_id },
        omit: { id: true },
      });
      const message = mapMessage(updated);
      if (count === 0) return message;
      await writeEvents(tx, [
        {
          type: body.flag ? 'message.flagged' : 'message.unflagged',
          org_id: ctx.org_id,
          phone_id: row.phone_id,
          data: message,
          previous: { flag_status: row.flag_status },
        },
      ]);
      return message;
    });
  }
}
