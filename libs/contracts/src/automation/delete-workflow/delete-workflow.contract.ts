import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { WorkflowIdParams } from '../workflow/workflow.schema';

export const DeleteWorkflowRpc = defineRpc({
  subject: 'automation.v1.workflows.delete',
  service: 'automation',
  request: z.object({ ctx: RequestContextSchema, params: WorkflowIdParams }),
  response: z.null(),
});
export type DeleteWorkflowRequest = z.infer<typeof DeleteWorkflowRpc.request>;

export const DeleteWorkflowRoute = defineRoute({
  operationId: 'deleteWorkflow',
  method: 'DELETE',
  path: '/workflows/{workflow_id}',
  tag: 'workflows',
  summary: 'Delete a workflow',
  description:
    'It starts no more runs and leaves every read (a second DELETE is 404); its run log stays readable by run_id. ' +
    'Steps of its runs not yet done are skipped. Answers 204.',
  params: WorkflowIdParams,
  phone: 'none',
  role: 'admin',
  rpc: DeleteWorkflowRpc,
  successStatus: 204,
});
