import { Errors, type ChatView, type GetChatRequest } from '@mapi/contracts';
import { chatReach } from '../../rows/chat-reach';
import { toChatViews } from '../../chats/chat-views';
import type { ChatViewRepository } from '../../repositories/chat-view-repository';
import type { MessageRepository } from '../../repositories/message-repository';

/** The message of every "cannot see it" answer: a missing chat and another organization's read the same. */
export const CHAT_NOT_FOUND = 'Chat not found';

/** GET /chats/{chat_id}: the chat as GET /chats lists it; 404 when no phone within reach has it (or a member may not see it). */
export class GetChat {
  constructor(
    private readonly chats: ChatViewRepository,
    private readonly messages: MessageRepository,
  ) {}

  async execute({ ctx, params }: GetChatRequest): Promise<ChatView> {
    const reach = chatReach(ctx);
    const row = await this.chats.findOne(ctx.org_id, params.chat_id, reach.phoneIds, reach.member, ctx.member?.member_id ?? null);
    if (!row) throw Errors.notFound(CHAT_NOT_FOUND);
    const [chat] = await toChatViews(ctx.org_id, [row], this.chats, this.messages, ctx.member?.email.toLowerCase() ?? null);
    return chat;
  }
}
