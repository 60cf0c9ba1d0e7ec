import { Errors, type ReadChatRequest, type SessionCommand } from '@mapi/contracts';
import { chatReach } from '../../rows/chat-reach';
import type { ChatRepository } from '../../repositories/chat-repository';
import { CHAT_NOT_FOUND } from '../get-chat/get-chat.usecase';

/** The phones' sessions, told of a read chat (their network's read mark: a Cloud API phone's mark-as-read). */
export interface ReadMarkPort {
  send(phoneId: string, cmd: SessionCommand): Promise<unknown>;
}

/**
 * POST /chats/{chat_id}/read: unread count 0 on every copy of the chat within reach (the x-phone
 * phone's only, when given; for a member, the copies within their labels and overrides). Recorded in
 * this service; each phone of those copies is then told (`chat-read`, not waited for): a Cloud API
 * phone marks the customer's latest message read at Meta, the other connectors send nothing. 404,
 * with nothing changed, when no phone within reach has the chat.
 */
export class ReadChat {
  constructor(
    private readonly chats: ChatRepository,
    private readonly sessions?: ReadMarkPort,
  ) {}

  async execute({ ctx, params }: ReadChatRequest): Promise<null> {
    const reach = chatReach(ctx);
    // A console session (any role) marks it read for its member only (decision 0091): the phones' unread_count stays.
    const phones = ctx.member
      ? await this.chats.markReadByMember(ctx.org_id, params.chat_id, reach, ctx.member.member_id)
      : await this.chats.markReadOn(ctx.org_id, params.chat_id, reach.phoneIds, reach.member);
    if (phones.length === 0) throw Errors.notFound(CHAT_NOT_FOUND);
    // a courtesy to the customer: the answer does not wait for it, and a phone that is away misses it
    for (const phoneId of phones) void this.sessions?.send(phoneId, { cmd: 'chat-read', chat_id: params.chat_id }).catch(() => undefined);
    return null;
  }
}
