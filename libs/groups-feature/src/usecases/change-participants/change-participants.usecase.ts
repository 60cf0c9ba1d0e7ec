import {
  ChoosePhoneRpc,
  Errors,
  GetChatRpc,
  contactId,
  type ChoosePhoneResponse,
  type GroupParticipantAction,
  type ParticipantOutcomeMap,
  type ParticipantsRequest,
} from '@mapi/contracts';
import type { SessionCommands } from '@mapi/events';
import type { NatsRpcClient } from '@mapi/platform';
import { toOutcomeMap } from './participant-outcomes';

/**
 * POST /chats/{chat_id}/add|remove|promote|demote (spec 4.4): acts through the x-phone phone or the
 * phone chosen by the shared rule (an admin of the group), via the session of whichever phones
 * replica runs it. 400 ERROR when that phone is disconnected or unreachable. The network's answer
 * per participant becomes the outcome map; the group's new membership reaches the chats store as a
 * groups upsert from the connector. The chat.notification.created event is not written here: the
 * network reports the change back as a group notification with its own id, and ingestion stores it
 * and writes the event once (docs/services/groups.md, "One notification per change").
 */
export class ChangeParticipants {
  constructor(
    private readonly action: GroupParticipantAction,
    private readonly sessions: SessionCommands,
    private readonly rpc: NatsRpcClient,
  ) {}

  async execute({ ctx, params, body }: ParticipantsRequest): Promise<ParticipantOutcomeMap> {
    // a member acts only on a group within their labels and overrides: 404 as for a missing group, before any phone acts
    if (ctx.member?.role === 'member') await this.rpc.call(GetChatRpc, { ctx, params: { chat_id: params.chat_id } });
    const phone = await this.actingPhone(ctx, params.chat_id);
    const participants = [...new Set(body.participants.map(contactId))];
    const answer = await this.sessions.require(phone.phone_id, {
      cmd: 'group-participants',
      chat_id: params.chat_id,
      participants,
      action: this.action,
    });
    return toOutcomeMap(this.action, answer.results ?? []);
  }

  private async actingPhone(ctx: ParticipantsRequest['ctx'], chatId: string): Promise<ChoosePhoneResponse> {
    if (!ctx.phone) return this.rpc.call(ChoosePhoneRpc, { ctx, chat_id: chatId, need_admin: true });
    if (!ctx.phone.org_phone) throw Errors.phoneUnavailable('The phone is not paired yet: scan its QR first');
    return { phone_id: ctx.phone.phone_id, org_phone: ctx.phone.org_phone };
  }
}
