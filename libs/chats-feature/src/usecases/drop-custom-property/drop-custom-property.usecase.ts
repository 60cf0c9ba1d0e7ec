import type { DropCustomPropertyRequest } from '@mapi/contracts';
import type { ChatPropertiesRepository } from '../../repositories/chat-properties-repository';

/**
 * chats.v1.chat.drop-custom-property (internal): the inbox deleted a property's definition, so every
 * chat of the organization loses its value (no event per chat: the definition's deletion is the change).
 */
export class DropCustomProperty {
  constructor(private readonly properties: ChatPropertiesRepository) {}

  async execute({ ctx, body }: DropCustomPropertyRequest): Promise<{ updated: number }> {
    return { updated: await this.properties.dropProperty(ctx.org_id, body.property_id) };
  }
}
