import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { SlaPolicySchema } from '../sla-policies/sla-policy.schema';

export const ListSlaPoliciesResultSchema = z.object({ policies: z.array(SlaPolicySchema) });
export type ListSlaPoliciesResult = z.infer<typeof ListSlaPoliciesResultSchema>;

export const ListSlaPoliciesRpc = defineRpc({
  subject: 'analytics.v1.sla-policies.list',
  service: 'analytics',
  request: z.object({ ctx: RequestContextSchema }),
  response: ListSlaPoliciesResultSchema,
});
export type ListSlaPoliciesRequest = z.infer<typeof ListSlaPoliciesRpc.request>;

export const ListSlaPoliciesRoute = defineRoute({
  operationId: 'listSlaPolicies',
  method: 'GET',
  path: '/analytics/sla-policies',
  tag: 'analytics',
  summary: 'List SLA policies',
  description:
    "Ours (issue 34): the organization's SLA policies, oldest first (at most 100). A token or member limited to phones sees the " +
    'policies of every phone (phone_id null) and those of its phones. docs/services/analytics.md "SLA policies".',
  phone: 'none',
  rpc: ListSlaPoliciesRpc,
  successStatus: 200,
  response: ListSlaPoliciesResultSchema,
});
