import type { DropLabelCopiesRequest } from '@mapi/contracts';
import type { ChatPropertiesRepository } from '../../repositories/chat-properties-repository';

/**
 * chats.v1.chat.drop-label (internal): the inbox is deleting a label, so every chat (by id) or contact
 * (by name) of the organization loses it. No event per chat: the label's deletion is the change.
 */
export class DropLabelCopies {
  constructor(private readonly properties: ChatPropertiesRepository) {}

  async execute({ ctx, body }: DropLabelCopiesRequest): Promise<{ updated: number }> {
    return { updated: await this.properties.dropLabel(ctx.org_id, body.type, body.label_id, body.name) };
  }
}
