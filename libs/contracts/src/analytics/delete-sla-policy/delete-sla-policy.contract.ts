import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { SlaPolicyParams, SlaPolicySchema } from '../sla-policies/sla-policy.schema';

export const DeleteSlaPolicyParams = SlaPolicyParams;
export const DeleteSlaPolicyResultSchema = z.object({ policy: SlaPolicySchema });
export type DeleteSlaPolicyResult = z.infer<typeof DeleteSlaPolicyResultSchema>;

export const DeleteSlaPolicyRpc = defineRpc({
  subject: 'analytics.v1.sla-policies.delete',
  service: 'analytics',
  request: z.object({ ctx: RequestContextSchema, params: DeleteSlaPolicyParams }),
  response: DeleteSlaPolicyResultSchema,
});
export type DeleteSlaPolicyRequest = z.infer<typeof DeleteSlaPolicyRpc.request>;

export const DeleteSlaPolicyRoute = defineRoute({
  operationId: 'deleteSlaPolicy',
  method: 'DELETE',
  path: '/analytics/sla-policies/{policy_id}',
  tag: 'analytics',
  summary: 'Delete an SLA policy',
  description:
    'Ours (issue 34): deletes the policy and its deadlines (none fires afterwards); answers the policy as it was. Owners and admins.',
  params: DeleteSlaPolicyParams,
  phone: 'none',
  role: 'admin',
  rpc: DeleteSlaPolicyRpc,
  successStatus: 200,
  response: DeleteSlaPolicyResultSchema,
});
