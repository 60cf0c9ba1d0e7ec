import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { RUNNABLE_ACTIONS } from '../workflow/action-metadata.schema';
import { UNSUPPORTED_TRIGGERS } from '../workflow/triggers';
import { WorkflowDefinitionFields, WorkflowNameSchema, WorkflowSchema, refineDefinition } from '../workflow/workflow.schema';

/**
 * A `WorkflowType` as the hosted service exports it: the other columns of the row (`id`, `org_id`,
 * `created_at`, …) may be present and are ignored, so an export imports unchanged.
 */
export const CreateWorkflowBody = z
  .object({
    name: WorkflowNameSchema,
    ...WorkflowDefinitionFields,
    is_active: z.boolean({ error: 'is_active must be true or false' }).optional(),
  })
  .superRefine((body, ctx) => refineDefinition(body, ctx));
export type CreateWorkflowBody = z.infer<typeof CreateWorkflowBody>;

export const CreateWorkflowRpc = defineRpc({
  subject: 'automation.v1.workflows.create',
  service: 'automation',
  request: z.object({ ctx: RequestContextSchema, body: CreateWorkflowBody }),
  response: WorkflowSchema,
});
export type CreateWorkflowRequest = z.infer<typeof CreateWorkflowRpc.request>;

export const CreateWorkflowRoute = defineRoute({
  operationId: 'createWorkflow',
  method: 'POST',
  path: '/workflows/create',
  tag: 'workflows',
  summary: 'Create a workflow',
  description:
    'A trigger (an event name), trigger_metadata `{org_phones, allow_internal_messages, first_action_id}` and the action graph, ' +
    'as `WorkflowType` of @periskope/types (an exported row imports unchanged; its id and timestamps are ignored). ' +
    'Conditions are `validate_action` steps (AND/OR groups); `split_path` continues on the first path whose condition holds. ' +
    `Runs: ${RUNNABLE_ACTIONS.join(', ')}; other action types are ` +
    `422 "not supported here yet", as are the triggers ${UNSUPPORTED_TRIGGERS.join(', ')} (ticket.closed is a ticket.updated that closes the ticket). ` +
    'The graph must be well-formed: ids unique, first_action_id and every next / path target present, ' +
    'no cycle (422 naming the field). is_active defaults to true.',
  body: CreateWorkflowBody,
  phone: 'none',
  role: 'admin',
  rpc: CreateWorkflowRpc,
  successStatus: 201,
  response: WorkflowSchema,
});
