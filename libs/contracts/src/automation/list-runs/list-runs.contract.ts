import { z } from 'zod';
import { MAX_PAGE_LIMIT, pageFields } from '../../chats/paging/paging';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { RUN_STATUSES, WorkflowIdParams, WorkflowRunSchema } from '../workflow/workflow.schema';

export const ListRunsQuery = z.object({
  ...pageFields,
  status: z.enum(RUN_STATUSES, { error: `status must be one of ${RUN_STATUSES.join(', ')}` }).optional(),
  /** Runs whose first action is a validate_action that held (passed) or did not (failed): the trigger's conditions. */
  first_condition: z.enum(['passed', 'failed'], { error: 'first_condition must be passed or failed' }).optional(),
});

export const ListRunsResponse = z.object({
  from: z.number().int(),
  to: z.number().int(),
  count: z.number().int(),
  runs: z.array(WorkflowRunSchema),
});
export type ListRunsResponse = z.infer<typeof ListRunsResponse>;

export const ListRunsRpc = defineRpc({
  subject: 'automation.v1.runs.list',
  service: 'automation',
  request: z.object({ ctx: RequestContextSchema, params: WorkflowIdParams, query: ListRunsQuery }),
  response: ListRunsResponse,
});
export type ListRunsRequest = z.infer<typeof ListRunsRpc.request>;

export const ListRunsRoute = defineRoute({
  operationId: 'getWorkflowRuns',
  method: 'GET',
  path: '/workflows/{workflow_id}/runs',
  tag: 'workflows',
  summary: "A workflow's run log",
  description:
    `Newest first, each run with its steps (action, outcome, timing). status filters; first_condition=failed keeps the runs whose first action (the trigger's conditions, a validate_action) did not hold, passed those where it held; offset defaults to 0, limit to ${MAX_PAGE_LIMIT}. ` +
    "A missing, deleted or another organization's workflow is 404 (a deleted workflow's runs stay readable by run_id).",
  params: WorkflowIdParams,
  query: ListRunsQuery,
  phone: 'none',
  role: 'admin',
  rpc: ListRunsRpc,
  successStatus: 200,
  response: ListRunsResponse,
});
