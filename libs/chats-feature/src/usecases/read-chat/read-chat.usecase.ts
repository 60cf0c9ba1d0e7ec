import { Errors, type ReadChatRequest } from '@mapi/contracts';
import { chatReach } from '../../rows/chat-reach';
import type { ChatRepository } from '../../repositories/chat-repository';
import { CHAT_NOT_FOUND } from '../get-chat/get-chat.usecase';

/**
 * POST /chats/{chat_id}/read: unread count 0 on every copy of the chat within reach (the x-phone
 * phone's only, when given; for a member, the copies within their labels and overrides). Recorded in this service; no read receipt goes to the network. 404,
 * with nothing changed, when no phone within reach has the chat.
 */
export class ReadChat {
  constructor(private readonly chats: ChatRepository) {}

  async execute({ ctx, params }: ReadChatRequest): Promise<null> {
    const reach = chatReach(ctx);
    const seen = await this.chats.markRead(ctx.org_id, params.chat_id, reach.phoneIds, reach.member);
    if (!seen) throw Errors.notFound(CHAT_NOT_FOUND);
    return null;
  }
}
