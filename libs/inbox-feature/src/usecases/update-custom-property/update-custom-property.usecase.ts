import { Errors, type CustomProperty, type UpdateCustomPropertyRequest } from '@mapi/contracts';
import { readOptions } from '../../custom-property-values';
import { mapCustomProperty } from '../../map-custom-property';
import type { CustomPropertyChanges, CustomPropertyRepository } from '../../repositories/custom-property-repository';
import { nameTaken } from '../create-custom-property/create-custom-property.usecase';

export const propertyNotFound = () => Errors.notFound('Custom property not found');

/**
 * PATCH /custom-properties/{property_id}: renames it, replaces a dropdown's options, or changes
 * is_required. The value type cannot change (values already held would no longer read as it); options
 * are only a dropdown's. Values chats hold are not rewritten.
 */
export class UpdateCustomProperty {
  constructor(private readonly properties: CustomPropertyRepository) {}

  async execute({ ctx, params, body }: UpdateCustomPropertyRequest): Promise<CustomProperty> {
    const current = await this.properties.find(ctx.org_id, params.property_id);
    if (!current) throw propertyNotFound();
    if (body.property_value_type !== undefined && body.property_value_type !== current.property_value_type) {
      throw Errors.validation({
        'body.property_value_type': { message: `the value type of a property cannot change (it is ${current.property_value_type})` },
      });
    }
    const changes: CustomPropertyChanges = {};
    if (body.property_name !== undefined) changes.property_name = body.property_name;
    if (body.is_required !== undefined) changes.is_required = body.is_required;
    if (body.property_value !== undefined) {
      if (current.property_value_type !== 'dropdown')
        throw Errors.validation({ 'body.property_value': { message: 'property_value (the options) is only for dropdown properties' } });
      changes.property_value = readOptions(body.property_value);
    }
    const row = await this.properties.update(ctx.org_id, params.property_id, changes);
    if (row === 'missing') throw propertyNotFound();
    if (row === 'name-taken') throw nameTaken(body.property_name ?? current.property_name);
    return mapCustomProperty(row);
  }
}
