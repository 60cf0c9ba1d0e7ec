import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { WorkflowDefinitionFields, WorkflowIdParams, WorkflowNameSchema, WorkflowSchema } from '../workflow/workflow.schema';

/** Every field optional; the definition that results is checked whole (definitionIssues). */
export const UpdateWorkflowBody = z.object({
  name: WorkflowNameSchema.optional(),
  trigger: WorkflowDefinitionFields.trigger.optional(),
  trigger_metadata: WorkflowDefinitionFields.trigger_metadata.optional(),
  actions: WorkflowDefinitionFields.actions.optional(),
  is_active: z.boolean({ error: 'is_active must be true or false' }).optional(),
});
export type UpdateWorkflowBody = z.infer<typeof UpdateWorkflowBody>;

export const UpdateWorkflowRpc = defineRpc({
  subject: 'automation.v1.workflows.update',
  service: 'automation',
  request: z.object({ ctx: RequestContextSchema, params: WorkflowIdParams, body: UpdateWorkflowBody }),
  response: WorkflowSchema,
});
export type UpdateWorkflowRequest = z.infer<typeof UpdateWorkflowRpc.request>;

export const UpdateWorkflowRoute = defineRoute({
  operationId: 'updateWorkflow',
  method: 'PATCH',
  path: '/workflows/{workflow_id}',
  tag: 'workflows',
  summary: 'Change a workflow; enable or disable it',
  description:
    '`is_active` enables (true) or disables (false) it: a disabled workflow starts no run (runs under way finish). ' +
    'The definition that results from the change is checked as on create (422 naming the field). Runs under way keep ' +
    "the definition they started with. A missing or another organization's workflow is 404.",
  params: WorkflowIdParams,
  body: UpdateWorkflowBody,
  phone: 'none',
  role: 'admin',
  rpc: UpdateWorkflowRpc,
  successStatus: 200,
  response: WorkflowSchema,
});
