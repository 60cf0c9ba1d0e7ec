import type { Label } from '@mapi/contracts';
import type { LabelRow } from './repositories/label-repository';

/** A label row as the `tbl_org_labels` row of @periskope/types. */
export function mapLabel(row: LabelRow): Label {
  return {
    label_id: row.label_id,
    org_id: row.org_id,
    name: row.name,
    color: row.color,
    type: row.type,
    created_at: row.created_at.toISOString(),
  };
}
