import { Errors, type SetChatPropertiesRequest } from '@mapi/contracts';
import { chatReach } from '../../rows/chat-reach';
import type { ChatPropertiesRepository } from '../../repositories/chat-properties-repository';
import { CHAT_NOT_FOUND } from '../get-chat/get-chat.usecase';

/**
 * chats.v1.chat.set-properties (internal, called by the inbox service once it has checked the values
 * against its definitions): sets labels, custom property values or the assignee on
 * every chat named, with their events, in one transaction. Any chat no phone in reach holds (missing,
 * another organization's, outside a member's labels and overrides): 404 and nothing changes.
 */
export class SetChatProperties {
  constructor(private readonly properties: ChatPropertiesRepository) {}

  async execute({ ctx, body }: SetChatPropertiesRequest): Promise<{ updated: number }> {
    const { chat_ids, ...changes } = body;
    const reach = chatReach(ctx);
    const updated = await this.properties.set(ctx.org_id, chat_ids, reach.phoneIds, changes, reach.member);
    if (updated === null) throw Errors.notFound(CHAT_NOT_FOUND);
    return { updated };
  }
}
