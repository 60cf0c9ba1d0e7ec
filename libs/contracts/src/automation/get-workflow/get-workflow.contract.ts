import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { WorkflowIdParams, WorkflowSchema } from '../workflow/workflow.schema';

export const GetWorkflowRpc = defineRpc({
  subject: 'automation.v1.workflows.get',
  service: 'automation',
  request: z.object({ ctx: RequestContextSchema, params: WorkflowIdParams }),
  response: WorkflowSchema,
});
export type GetWorkflowRequest = z.infer<typeof GetWorkflowRpc.request>;

export const GetWorkflowRoute = defineRoute({
  operationId: 'getWorkflowById',
  method: 'GET',
  path: '/workflows/{workflow_id}',
  tag: 'workflows',
  summary: 'Get a workflow',
  description: "A missing, deleted or another organization's workflow is 404 NOT_FOUND_ERROR.",
  params: WorkflowIdParams,
  phone: 'none',
  role: 'admin',
  rpc: GetWorkflowRpc,
  successStatus: 200,
  response: WorkflowSchema,
});
