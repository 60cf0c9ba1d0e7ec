import { parseConfig } from '@mapi/platform';
import { z } from 'zod';

/** The analytics retention's variable; see docs/services/analytics.md "Retention". */
export const RetentionConfigSchema = z.object({
  /** Ended flag jobs and closed SLA waits older than this many days are deleted (at least 1; never sooner than the late cut-offs). */
  ANALYTICS_RETENTION_DAYS: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(1).max(3650).default(30)),
});
export type RetentionConfig = z.infer<typeof RetentionConfigSchema>;

export function loadRetentionConfig(env: NodeJS.ProcessEnv = process.env): RetentionConfig {
  return parseConfig(RetentionConfigSchema, env);
}
