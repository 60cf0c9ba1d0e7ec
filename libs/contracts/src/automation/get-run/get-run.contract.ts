import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { RunIdParams, WorkflowRunSchema } from '../workflow/workflow.schema';

export const GetRunRpc = defineRpc({
  subject: 'automation.v1.runs.get',
  service: 'automation',
  request: z.object({ ctx: RequestContextSchema, params: RunIdParams }),
  response: WorkflowRunSchema,
});
export type GetRunRequest = z.infer<typeof GetRunRpc.request>;

export const GetRunRoute = defineRoute({
  operationId: 'getWorkflowRun',
  method: 'GET',
  path: '/workflows/runs/{run_id}',
  tag: 'workflows',
  summary: 'One run of a workflow',
  description: "The run with each action's outcome and timing. A missing or another organization's run is 404.",
  params: RunIdParams,
  phone: 'none',
  role: 'admin',
  rpc: GetRunRpc,
  successStatus: 200,
  response: WorkflowRunSchema,
});
