import { parseConfig } from '@mapi/platform';
import { z } from 'zod';

const int = (def: number, min = 0, max = Number.MAX_SAFE_INTEGER) =>
  z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(min).max(max).default(def));

/** The engine's variables (AUTOMATION_*); see docs/services/automation.md. */
export const EngineConfigSchema = z.object({
  /** Runs an organization may start per minute (all workflows); runs over it are recorded as skipped. */
  AUTOMATION_RUNS_PER_MINUTE: int(600, 1),
  /** Loop guard: runs one workflow may start per chat per minute; runs over it are recorded as skipped. */
  AUTOMATION_CHAT_RUNS_PER_MINUTE: int(10, 1),
  /** Steps claimed per executor round. */
  AUTOMATION_STEP_BATCH: int(50, 1, 1_000),
  /** How long a claimed step is held by its executor; a step not recorded by then is claimed again (same idempotency key). */
  AUTOMATION_STEP_LEASE_MS: int(60_000, 1_000),
  /** Attempts of a step whose action fails for a passing reason (503, timeout) before the run fails. */
  AUTOMATION_STEP_MAX_ATTEMPTS: int(5, 1, 100),
  /** Longest executor sleep while wake-ups work and nothing is due sooner. */
  AUTOMATION_IDLE_POLL_MS: int(30_000, 50),
  /** Longest executor sleep while the wake-up connection is down. */
  AUTOMATION_FALLBACK_POLL_MS: int(500, 10),
  /** Tests only (fault injection): hold each step this long after its action, before recording it; keep 0. */
  AUTOMATION_FAULT_HOLD_AFTER_ACTION_MS: int(0),
  /** JetStream redelivers an event not acked within this (a crashed intake). */
  AUTOMATION_INTAKE_ACK_WAIT_MS: int(30_000, 1_000),
  /** Finished runs (and their steps) older than this are deleted (30 days; at least 1 h: the loop guard counts the last minute's runs). */
  AUTOMATION_RUN_RETENTION_MS: int(30 * 86_400_000, 3_600_000),
  /** Time between retention sweeps (1 h): the sweeper sleeps otherwise. */
  AUTOMATION_RETENTION_SWEEP_INTERVAL_MS: int(3_600_000, 1_000),
  /** Runs deleted per statement, so no sweep holds long locks. */
  AUTOMATION_RETENTION_BATCH: int(1_000, 1, 100_000),
  /** notify_http: address ranges exempt from the SSRF block (comma-separated CIDRs, e.g. 127.0.0.1/32 for a local receiver); empty: public addresses only. */
  AUTOMATION_HTTP_ALLOW_CIDRS: z
    .string()
    .default('')
    .transform((s) =>
      s
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean),
    ),
  /** notify_http: an attempt with no answer by then is a timeout (retried). */
  AUTOMATION_HTTP_TIMEOUT_MS: int(10_000, 100, 120_000),
});
export type EngineConfig = z.infer<typeof EngineConfigSchema>;

export function loadEngineConfig(env: NodeJS.ProcessEnv = process.env): EngineConfig {
  return parseConfig(EngineConfigSchema, env);
}
