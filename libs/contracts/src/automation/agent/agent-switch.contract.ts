import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';

/**
 * The AI agent on one phone (the `x-phone`): its switch, whether a model is configured, and so whether
 * ai_prompt steps answer on that phone (`active`), with the reason when they do not.
 */
export const AiAgentStateSchema = z.object({
  phone_id: z.string(),
  /** The phone's switch; true unless an admin switched it off (no row: on). */
  enabled: z.boolean(),
  /** The model the service is configured with (AI_AGENT_MODEL), or null when none is. */
  model: z.string().nullable(),
  model_configured: z.boolean(),
  /** enabled and a model configured: ai_prompt steps of this phone's events answer. */
  active: z.boolean(),
  /** Why not active ("AI agent is off: no model configured", or switched off for the phone); null when active. */
  reason: z.string().nullable(),
  updated_at: z.string().nullable(),
  /** The token or member that last changed the switch; null while never changed. */
  updated_by: z.string().nullable(),
});
export type AiAgentState = z.infer<typeof AiAgentStateSchema>;

export const UpdateAiAgentBody = z.object({ enabled: z.boolean({ error: 'enabled must be true or false' }) });

export const GetAiAgentRpc = defineRpc({
  subject: 'automation.v1.agent.get',
  service: 'automation',
  request: z.object({ ctx: RequestContextSchema }),
  response: AiAgentStateSchema,
});
export type GetAiAgentRequest = z.infer<typeof GetAiAgentRpc.request>;

export const UpdateAiAgentRpc = defineRpc({
  subject: 'automation.v1.agent.update',
  service: 'automation',
  request: z.object({ ctx: RequestContextSchema, body: UpdateAiAgentBody }),
  response: AiAgentStateSchema,
});
export type UpdateAiAgentRequest = z.infer<typeof UpdateAiAgentRpc.request>;

const SWITCH =
  'The agent is the `ai_prompt` workflow action; this switch turns it off (or on again) for the phone of `x-phone` without ' +
  'editing workflows. Off: its ai_prompt steps are recorded as skipped with the reason and send nothing. With no model ' +
  'configured (AI_AGENT_BASE_URL, AI_AGENT_MODEL) the agent is off whatever the switch says, and `reason` says so.';

export const GetAiAgentRoute = defineRoute({
  operationId: 'getAiAgent',
  method: 'GET',
  path: '/automation/agent',
  tag: 'workflows',
  summary: "The AI agent's switch on a phone, and whether it answers there",
  description: SWITCH,
  phone: 'required',
  role: 'admin',
  rpc: GetAiAgentRpc,
  successStatus: 200,
  response: AiAgentStateSchema,
});

export const UpdateAiAgentRoute = defineRoute({
  operationId: 'updateAiAgent',
  method: 'PATCH',
  path: '/automation/agent',
  tag: 'workflows',
  summary: 'Switch the AI agent on or off for a phone',
  description: SWITCH,
  body: UpdateAiAgentBody,
  phone: 'required',
  role: 'admin',
  rpc: UpdateAiAgentRpc,
  successStatus: 200,
  response: AiAgentStateSchema,
  audit: { action: 'automation.agent.updated', target: 'x-phone' },
});
