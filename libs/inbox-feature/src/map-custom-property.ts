import type { CustomProperty } from '@mapi/contracts';
import type { CustomPropertyRow } from './repositories/custom-property-repository';

/** A definition as the `tbl_custom_properties` row: a dropdown's options comma-separated in property_value, null otherwise. */
export function mapCustomProperty(row: CustomPropertyRow): CustomProperty {
  return {
    property_id: row.property_id,
    org_id: row.org_id,
    property_name: row.property_name,
    property_value_type: row.property_value_type,
    property_value: row.property_value_type === 'dropdown' ? row.property_value.join(',') : null,
    property_metadata: null,
    is_required: row.is_required,
    type: row.type,
    created_by: row.created_by,
    created_at: row.created_at.toISOString(),
  };
}
