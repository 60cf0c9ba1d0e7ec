import { Errors, type AiAgentState, type GetAiAgentRequest, type RequestContext } from '@mapi/contracts';
import type { AiAgent } from '../../agent/ai-agent';

/** The phone the gateway resolved from `x-phone` (the route requires it: of the caller's organization, within the token's scope). */
export function requestPhone(ctx: RequestContext): string {
  if (!ctx.phone) throw Errors.validation({ 'x-phone': { message: 'x-phone header is required', value: null } });
  return ctx.phone.phone_id;
}

/** GET /automation/agent: the switch of the `x-phone` phone and whether the agent answers there (and why not). */
export class GetAiAgent {
  constructor(private readonly agent: AiAgent) {}

  async execute({ ctx }: GetAiAgentRequest): Promise<AiAgentState> {
    const phoneId = requestPhone(ctx);
    return this.agent.state(phoneId, await this.agent.switches.find(ctx.org_id, phoneId));
  }
}
