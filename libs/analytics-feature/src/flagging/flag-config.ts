import { parseConfig } from '@mapi/platform';
import { z } from 'zod';

const int = (def: number, min = 0, max = Number.MAX_SAFE_INTEGER) =>
  z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(min).max(max).default(def));
const text = () => z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), z.string().trim().optional());

/**
 * Flagging's variables (FLAG_*; the model is the AI agent's: AI_AGENT_BASE_URL, AI_AGENT_MODEL, AI_AGENT_API_KEY);
 * see docs/services/analytics.md "Flagging".
 */
export const FlagConfigSchema = z.object({
  AI_AGENT_BASE_URL: text().pipe(z.url({ protocol: /^https?$/, error: 'AI_AGENT_BASE_URL must be an http(s) URL' }).optional()),
  AI_AGENT_MODEL: text(),
  AI_AGENT_API_KEY: text(),
  /** One model request when flagging; past it the job is tried again later. */
  FLAG_MODEL_TIMEOUT_MS: int(20_000, 100, 600_000),
  /** Model requests per message at most (unreachable, timed out, 5xx); then the model rule gives up on it. */
  FLAG_MODEL_ATTEMPTS: int(3, 1, 20),
  /** Jobs claimed per round, and run at once. */
  FLAG_BATCH: int(20, 1, 500),
  /** A claimed job is the claimer's this long; a worker killed mid-job leaves it to be claimed again after it. */
  FLAG_LEASE_MS: int(60_000, 1_000, 3_600_000),
  /** Longest sleep of the worker while wake-ups work and nothing is due sooner. */
  FLAG_IDLE_POLL_MS: int(30_000, 50),
  /** Longest sleep while the wake-up connection is down. */
  FLAG_FALLBACK_POLL_MS: int(500, 10),
  /** An incoming message older than this when its event is consumed (an import, a replay) is not flagged. */
  FLAG_LATE_CUTOFF_MS: int(24 * 3_600_000, 60_000),
  /** How long a waiting rule's "minute" lasts: 60000; tests only set less. */
  FLAG_MINUTE_MS: int(60_000, 1, 60_000),
});
export type FlagConfig = z.infer<typeof FlagConfigSchema>;

export function loadFlagConfig(env: NodeJS.ProcessEnv = process.env): FlagConfig {
  return parseConfig(FlagConfigSchema, env);
}

/** A model to ask: both the base URL and the model name are set. */
export const flagModelOn = (c: Pick<FlagConfig, 'AI_AGENT_BASE_URL' | 'AI_AGENT_MODEL'>): boolean =>
  Boolean(c.AI_AGENT_BASE_URL && c.AI_AGENT_MODEL);
