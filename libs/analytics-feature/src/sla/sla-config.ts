import { parseConfig } from '@mapi/platform';
import { z } from 'zod';

const int = (def: number, min = 0, max = Number.MAX_SAFE_INTEGER) =>
  z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(min).max(max).default(def));

/** The SLA timers' variables (SLA_*); see docs/services/analytics.md "Business hours and SLA policies". */
export const SlaConfigSchema = z.object({
  /** Breaches fired (and their events written) per transaction. */
  SLA_BATCH: int(500, 1, 10_000),
  /** Longest sleep while wake-ups work and nothing is due sooner. */
  SLA_IDLE_POLL_MS: int(30_000, 50),
  /** Longest sleep while the wake-up connection is down. */
  SLA_FALLBACK_POLL_MS: int(500, 10),
  /** A deadline fires this long after it passes: a reply sent just before it, still on its way through the stream, cancels it. */
  SLA_FIRE_DELAY_MS: int(1_000, 0, 600_000),
  /**
   * …and not sooner than this after the wait was armed: a wait armed after its deadline (the consumer
   * catching up on a backlog) leaves the replies later in that backlog the time to cancel it.
   */
  SLA_ARM_GRACE_MS: int(30_000, 0, 3_600_000),
  /** An incoming message older than this when its event is consumed (an import, a replay) arms no deadline. */
  SLA_LATE_CUTOFF_MS: int(24 * 3_600_000, 60_000),
  /** How long a policy's "minute" lasts: 60000; tests only set less (a 1-minute policy then waits SLA_MINUTE_MS). */
  SLA_MINUTE_MS: int(60_000, 1, 60_000),
});
export type SlaConfig = z.infer<typeof SlaConfigSchema>;

export function loadSlaConfig(env: NodeJS.ProcessEnv = process.env): SlaConfig {
  return parseConfig(SlaConfigSchema, env);
}
