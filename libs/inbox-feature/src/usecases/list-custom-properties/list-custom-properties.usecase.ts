import type { ListCustomPropertiesRequest, ListCustomPropertiesResponse } from '@mapi/contracts';
import { mapCustomProperty } from '../../map-custom-property';
import type { CustomPropertyRepository } from '../../repositories/custom-property-repository';

/** GET /custom-properties: every definition of the organization, oldest first. */
export class ListCustomProperties {
  constructor(private readonly properties: CustomPropertyRepository) {}

  async execute({ ctx }: ListCustomPropertiesRequest): Promise<ListCustomPropertiesResponse> {
    const rows = await this.properties.list(ctx.org_id);
    return { count: rows.length, custom_properties: rows.map(mapCustomProperty) };
  }
}
