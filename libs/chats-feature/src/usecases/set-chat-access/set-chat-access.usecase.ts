import { Errors, type SetChatAccessRequest } from '@mapi/contracts';
import { phonesInReach } from '../../chats/chat-views';
import type { ChatPropertiesRepository } from '../../repositories/chat-properties-repository';
import { CHAT_NOT_FOUND } from '../get-chat/get-chat.usecase';

/**
 * chats.v1.chat.set-access (internal, called by the members service for PATCH /chats/access once it
 * has checked that every email is a member): replaces or merges the per-member overrides of every
 * chat named, in one transaction, the rows locked (a concurrent merge loses nothing). Any chat no
 * phone in reach holds (missing, another organization's): 404 and nothing changes.
 */
export class SetChatAccess {
  constructor(private readonly properties: ChatPropertiesRepository) {}

  async execute({ ctx, body }: SetChatAccessRequest): Promise<{ updated: number }> {
    const changes = body.replace ? { override_chat_access: body.access } : { merge_chat_access: body.access };
    const updated = await this.properties.set(ctx.org_id, body.chat_ids, phonesInReach(ctx), changes);
    if (updated === null) throw Errors.notFound(CHAT_NOT_FOUND);
    return { updated };
  }
}
