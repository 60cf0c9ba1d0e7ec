import { parseConfig } from '@mapi/platform';
import { z } from 'zod';

const int = (def: number, min = 0, max = Number.MAX_SAFE_INTEGER) =>
  z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(min).max(max).default(def));

/** The reminder poller's variables (TASK_REMINDER_*); see docs/services/inbox.md. */
export const ReminderConfigSchema = z.object({
  /** Reminders claimed (and their events written) per transaction. */
  TASK_REMINDER_BATCH: int(500, 1, 10_000),
  /** Longest sleep while wake-ups work and nothing is due sooner (a missed wake-up costs at most this). */
  TASK_REMINDER_IDLE_POLL_MS: int(30_000, 50),
  /** Longest sleep while the wake-up connection is down. */
  TASK_REMINDER_FALLBACK_POLL_MS: int(500, 10),
});
export type ReminderConfig = z.infer<typeof ReminderConfigSchema>;

export function loadReminderConfig(env: NodeJS.ProcessEnv = process.env): ReminderConfig {
  return parseConfig(ReminderConfigSchema, env);
}
