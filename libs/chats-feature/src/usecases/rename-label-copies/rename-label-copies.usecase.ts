import type { RenameLabelCopiesRequest } from '@mapi/contracts';
import type { ChatPropertiesRepository } from '../../repositories/chat-properties-repository';

/**
 * chats.v1.chat.rename-label (internal): the inbox renamed a label, so the copies this service keeps
 * follow — chat_labels' name (by id) and a contact label's name. Idempotent; no event (label ids stay).
 */
export class RenameLabelCopies {
  constructor(private readonly properties: ChatPropertiesRepository) {}

  async execute({ ctx, body }: RenameLabelCopiesRequest): Promise<{ updated: number }> {
    return { updated: await this.properties.renameLabel(ctx.org_id, body.type, body.label_id, body.name, body.new_name) };
  }
}
