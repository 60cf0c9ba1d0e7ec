import { z } from 'zod';
import { MAX_PAGE_LIMIT, pageFields } from '../../chats/paging/paging';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { WorkflowSchema } from '../workflow/workflow.schema';

export const ListWorkflowsQuery = z.object({ ...pageFields });

export const ListWorkflowsResponse = z.object({
  from: z.number().int(),
  to: z.number().int(),
  count: z.number().int(),
  workflows: z.array(WorkflowSchema),
});
export type ListWorkflowsResponse = z.infer<typeof ListWorkflowsResponse>;

export const ListWorkflowsRpc = defineRpc({
  subject: 'automation.v1.workflows.list',
  service: 'automation',
  request: z.object({ ctx: RequestContextSchema, query: ListWorkflowsQuery }),
  response: ListWorkflowsResponse,
});
export type ListWorkflowsRequest = z.infer<typeof ListWorkflowsRpc.request>;

export const ListWorkflowsRoute = defineRoute({
  operationId: 'getWorkflows',
  method: 'GET',
  path: '/workflows',
  tag: 'workflows',
  summary: "List the organization's workflows",
  description: `Newest first; deleted ones are not listed. offset defaults to 0, limit to ${MAX_PAGE_LIMIT}, its maximum (inclusive).`,
  query: ListWorkflowsQuery,
  phone: 'none',
  role: 'admin',
  rpc: ListWorkflowsRpc,
  successStatus: 200,
  response: ListWorkflowsResponse,
});
