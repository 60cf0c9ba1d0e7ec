import type { CustomProperty, DeleteCustomPropertyRequest } from '@mapi/contracts';
import type { ChatProperties } from '../../chat-properties';
import { mapCustomProperty } from '../../map-custom-property';
import type { CustomPropertyRepository } from '../../repositories/custom-property-repository';
import { propertyNotFound } from '../update-custom-property/update-custom-property.usecase';

/**
 * DELETE /custom-properties/{property_id}: a chat property's values are removed first (the chats
 * service's rows), then the definition (a ticket property's values with it, one transaction); a failure in between leaves the definition, so a retry
 * finishes the job. Another organization's property, or one already deleted, is 404.
 */
export class DeleteCustomProperty {
  constructor(
    private readonly properties: CustomPropertyRepository,
    private readonly chats: ChatProperties,
  ) {}

  async execute({ ctx, params }: DeleteCustomPropertyRequest): Promise<CustomProperty> {
    const current = await this.properties.find(ctx.org_id, params.property_id);
    if (!current) throw propertyNotFound();
    if (current.type === 'chat') await this.chats.drop(ctx, params.property_id);
    const row = await this.properties.delete(ctx.org_id, params.property_id);
    if (!row) throw propertyNotFound();
    return mapCustomProperty(row);
  }
}
