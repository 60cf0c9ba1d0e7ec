import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { MAX_SLA_MINUTES, MAX_SLA_POLICIES, SlaPolicyCreateBody, SlaPolicySchema } from '../sla-policies/sla-policy.schema';

export const CreateSlaPolicyBody = SlaPolicyCreateBody;
export type CreateSlaPolicyBody = SlaPolicyCreateBody;

export const CreateSlaPolicyResultSchema = z.object({ policy: SlaPolicySchema });
export type CreateSlaPolicyResult = z.infer<typeof CreateSlaPolicyResultSchema>;

export const CreateSlaPolicyRpc = defineRpc({
  subject: 'analytics.v1.sla-policies.create',
  service: 'analytics',
  request: z.object({ ctx: RequestContextSchema, body: CreateSlaPolicyBody }),
  response: CreateSlaPolicyResultSchema,
});
export type CreateSlaPolicyRequest = z.infer<typeof CreateSlaPolicyRpc.request>;

export const CreateSlaPolicyRoute = defineRoute({
  operationId: 'createSlaPolicy',
  method: 'POST',
  path: '/analytics/sla-policies',
  tag: 'analytics',
  summary: 'Create an SLA policy',
  description:
    `Ours (issue 34): "first_response" or "next_response" within \`minutes\` (1–${MAX_SLA_MINUTES}), counted in the organization's ` +
    'business hours when a schedule is set; optionally only for chats carrying `label_id` or of `phone_id`. An incoming message ' +
    'on a chat with no pending reply arms a deadline; a reply before it cancels it; past it, `sla.breached` fires once (webhooks, ' +
    `realtime, the workflow trigger sla.breached). Messages from before the policy existed arm nothing. At most ${MAX_SLA_POLICIES} ` +
    'policies. Owners and admins; a token limited to phones must name one of its phones.',
  body: CreateSlaPolicyBody,
  phone: 'none',
  role: 'admin',
  rpc: CreateSlaPolicyRpc,
  successStatus: 201,
  response: CreateSlaPolicyResultSchema,
});
