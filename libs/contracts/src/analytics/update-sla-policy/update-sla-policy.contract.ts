import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { SlaPolicyParams, SlaPolicySchema, SlaPolicyUpdateBody } from '../sla-policies/sla-policy.schema';

export const UpdateSlaPolicyParams = SlaPolicyParams;
export const UpdateSlaPolicyBody = SlaPolicyUpdateBody;
export type UpdateSlaPolicyBody = SlaPolicyUpdateBody;

export const UpdateSlaPolicyResultSchema = z.object({ policy: SlaPolicySchema });
export type UpdateSlaPolicyResult = z.infer<typeof UpdateSlaPolicyResultSchema>;

export const UpdateSlaPolicyRpc = defineRpc({
  subject: 'analytics.v1.sla-policies.update',
  service: 'analytics',
  request: z.object({ ctx: RequestContextSchema, params: UpdateSlaPolicyParams, body: UpdateSlaPolicyBody }),
  response: UpdateSlaPolicyResultSchema,
});
export type UpdateSlaPolicyRequest = z.infer<typeof UpdateSlaPolicyRpc.request>;

export const UpdateSlaPolicyRoute = defineRoute({
  operationId: 'updateSlaPolicy',
  method: 'PATCH',
  path: '/analytics/sla-policies/{policy_id}',
  tag: 'analytics',
  summary: 'Update an SLA policy',
  description:
    'Ours (issue 34): changes the named fields. Deadlines already armed keep theirs; disabling a policy (or changing its kind, ' +
    'label or phone) drops its pending deadlines. Owners and admins.',
  params: UpdateSlaPolicyParams,
  body: UpdateSlaPolicyBody,
  phone: 'none',
  role: 'admin',
  rpc: UpdateSlaPolicyRpc,
  successStatus: 200,
  response: UpdateSlaPolicyResultSchema,
});
