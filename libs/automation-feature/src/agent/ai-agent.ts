import { AI_AGENT_OFF_NO_MODEL, type AiAgentState } from '@mapi/contracts';
import type { PrismaClient } from '@mapi/db';
import { modelConfigured, type AgentConfig } from './agent-config';
import { AgentSwitchRepository, type AgentSwitchRow } from './agent-switch.repository';
import { ChatCompletionsClient } from './chat-completions.client';

export const switchedOff = (phoneId: string) => `the AI agent is switched off for phone ${phoneId}`;

/**
 * The AI agent's parts in one process: its configuration, the model client (null while no model is
 * configured: the agent is off and says so) and the per-phone switches.
 */
export class AiAgent {
  constructor(
    readonly config: AgentConfig,
    readonly switches: AgentSwitchRepository,
    readonly chat: ChatCompletionsClient | null,
  ) {}

  static create(config: AgentConfig, prisma: PrismaClient): AiAgent {
    const chat = modelConfigured(config)
      ? new ChatCompletionsClient({
          baseUrl: config.AI_AGENT_BASE_URL,
          model: config.AI_AGENT_MODEL,
          apiKey: config.AI_AGENT_API_KEY,
          timeoutMs: config.AI_AGENT_TIMEOUT_MS,
          maxTokens: config.AI_AGENT_MAX_TOKENS,
          temperature: config.AI_AGENT_TEMPERATURE,
        })
      : null;
    return new AiAgent(config, new AgentSwitchRepository(prisma), chat);
  }

  /** The switch of the request's phone with what it means (GET/PATCH /automation/agent). */
  state(phoneId: string, row: AgentSwitchRow | null): AiAgentState {
    const enabled = row?.enabled ?? true;
    const reason = !this.chat ? AI_AGENT_OFF_NO_MODEL : !enabled ? switchedOff(phoneId) : null;
    return {
      phone_id: phoneId,
      enabled,
      model: this.chat?.model ?? null,
      model_configured: Boolean(this.chat),
      active: reason === null,
      reason,
      updated_at: row?.updated_at.toISOString() ?? null,
      updated_by: row?.updated_by ?? null,
    };
  }
}
