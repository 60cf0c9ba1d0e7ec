import { parseConfig } from '@mapi/platform';
import { z } from 'zod';

const text = () => z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), z.string().trim().optional());
const num = (def: number, min: number, max: number, int = true) =>
  z.preprocess((v) => (v === '' ? undefined : v), (int ? z.coerce.number().int() : z.coerce.number()).min(min).max(max).default(def));

/** The AI agent's variables (AI_AGENT_*); see docs/services/automation.md, "The AI agent". */
export const AgentConfigSchema = z.object({
  /** OpenAI-compatible API base, ending where `/chat/completions` follows (e.g. http://ollama:11434/v1). Unset: the agent is off. */
  AI_AGENT_BASE_URL: text().pipe(z.url({ protocol: /^https?$/, error: 'AI_AGENT_BASE_URL must be an http(s) URL' }).optional()),
  /** The model name sent. Unset: the agent is off. */
  AI_AGENT_MODEL: text(),
  /** Sent as `Authorization: Bearer`; never logged nor recorded. */
  AI_AGENT_API_KEY: text(),
  /** One chat-completions request; past it the step is retried like a 503. */
  AI_AGENT_TIMEOUT_MS: num(30_000, 100, 600_000),
  /** Least similarity (1 − cosine distance) of an entry given to the model; an action's agent.min_score overrides it. */
  AI_AGENT_MIN_SCORE: num(0.35, -1, 1, false),
  /** Most entries given to the model; an action's agent.max_entries overrides it. */
  AI_AGENT_MAX_ENTRIES: num(3, 1, 20),
  /** `max_tokens` of the answer. */
  AI_AGENT_MAX_TOKENS: num(500, 16, 32_000),
  AI_AGENT_TEMPERATURE: num(0.2, 0, 2, false),
});
export type AgentConfig = z.infer<typeof AgentConfigSchema>;

export function loadAgentConfig(env: NodeJS.ProcessEnv = process.env): AgentConfig {
  return parseConfig(AgentConfigSchema, env);
}

/** A model to ask: both the base URL and the model name are set. */
export function modelConfigured(c: AgentConfig): c is AgentConfig & { AI_AGENT_BASE_URL: string; AI_AGENT_MODEL: string } {
  return Boolean(c.AI_AGENT_BASE_URL && c.AI_AGENT_MODEL);
}
