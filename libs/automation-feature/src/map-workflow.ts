import type { Workflow, WorkflowAction } from '@mapi/contracts';
import type { WorkflowRow } from './repositories/workflow-repository';

type StoredTriggerMetadata = { org_phones?: string[]; allow_internal_messages?: boolean; first_action_id?: string | null };

/** A workflow row as `WorkflowType` of @periskope/types (the `tbl_org_workflows` row). */
export function mapWorkflow(row: WorkflowRow): Workflow {
  const meta = (row.trigger_metadata ?? {}) as StoredTriggerMetadata;
  return {
    id: row.id,
    org_id: row.org_id,
    name: row.name,
    trigger: row.trigger,
    trigger_metadata: {
      org_phones: meta.org_phones ?? [],
      allow_internal_messages: meta.allow_internal_messages ?? false,
      first_action_id: meta.first_action_id ?? null,
    },
    actions: (row.actions ?? []) as WorkflowAction[],
    is_active: row.is_active,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    updated_by: row.updated_by,
    deleted_at: row.deleted_at?.toISOString() ?? null,
  };
}
