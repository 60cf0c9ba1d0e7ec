import type { AiAgentState, UpdateAiAgentRequest } from '@mapi/contracts';
import type { AiAgent } from '../../agent/ai-agent';
import { requestPhone } from '../get-ai-agent/get-ai-agent.usecase';

/**
 * PATCH /automation/agent `{enabled}`: switches the agent on or off for the `x-phone` phone (a row keyed
 * by organization and phone; the token or member recorded). Allowed while no model is configured: the
 * answer then says the agent is off for that reason whatever the switch.
 */
export class UpdateAiAgent {
  constructor(private readonly agent: AiAgent) {}

  async execute({ ctx, body }: UpdateAiAgentRequest): Promise<AiAgentState> {
    const phoneId = requestPhone(ctx);
    const row = await this.agent.switches.set(ctx.org_id, phoneId, body.enabled, ctx.member?.email ?? ctx.token_id);
    return this.agent.state(phoneId, row);
  }
}
