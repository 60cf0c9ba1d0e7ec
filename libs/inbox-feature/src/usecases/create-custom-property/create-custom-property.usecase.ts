import { randomUUID } from 'node:crypto';
import { Errors, MAX_CUSTOM_PROPERTIES, type CreateCustomPropertyRequest, type CustomProperty } from '@mapi/contracts';
import { readOptions } from '../../custom-property-values';
import { mapCustomProperty } from '../../map-custom-property';
import type { CustomPropertyRepository } from '../../repositories/custom-property-repository';

/**
 * POST /custom-properties/create: a new definition. A name the organization already has (any case)
 * is 422 on body.property_name; so is a definition beyond MAX_CUSTOM_PROPERTIES.
 */
export class CreateCustomProperty {
  constructor(private readonly properties: CustomPropertyRepository) {}

  async execute({ ctx, body }: CreateCustomPropertyRequest): Promise<CustomProperty> {
    const options = body.property_value_type === 'dropdown' ? readOptions(body.property_value ?? '') : [];
    if ((await this.properties.count(ctx.org_id)) >= MAX_CUSTOM_PROPERTIES) {
      throw Errors.validation({
        'body.property_name': { message: `an organization has at most ${MAX_CUSTOM_PROPERTIES} custom properties` },
      });
    }
    const row = await this.properties.create(ctx.org_id, {
      property_id: randomUUID(),
      property_name: body.property_name,
      property_value_type: body.property_value_type,
      property_value: options,
      is_required: body.is_required ?? false,
      type: body.type ?? 'chat',
      created_by: ctx.token_id,
    });
    if (!row) throw nameTaken(body.property_name);
    return mapCustomProperty(row);
  }
}

export const nameTaken = (name: string) =>
  Errors.validation({
    'body.property_name': { message: `the organization has a custom property named ${JSON.stringify(name)} already (names ignore case)` },
  });
