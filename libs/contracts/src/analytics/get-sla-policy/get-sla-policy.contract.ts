import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { SlaPolicyParams, SlaPolicySchema } from '../sla-policies/sla-policy.schema';

export const GetSlaPolicyParams = SlaPolicyParams;
export const GetSlaPolicyResultSchema = z.object({ policy: SlaPolicySchema });
export type GetSlaPolicyResult = z.infer<typeof GetSlaPolicyResultSchema>;

export const GetSlaPolicyRpc = defineRpc({
  subject: 'analytics.v1.sla-policies.get',
  service: 'analytics',
  request: z.object({ ctx: RequestContextSchema, params: GetSlaPolicyParams }),
  response: GetSlaPolicyResultSchema,
});
export type GetSlaPolicyRequest = z.infer<typeof GetSlaPolicyRpc.request>;

export const GetSlaPolicyRoute = defineRoute({
  operationId: 'getSlaPolicy',
  method: 'GET',
  path: '/analytics/sla-policies/{policy_id}',
  tag: 'analytics',
  summary: 'Get an SLA policy',
  description: "Ours (issue 34): one SLA policy; another organization's (or another phone's, for a token limited to phones) is 404.",
  params: GetSlaPolicyParams,
  phone: 'none',
  rpc: GetSlaPolicyRpc,
  successStatus: 200,
  response: GetSlaPolicyResultSchema,
});
