import type { PrismaClient } from '@mapi/db';
import type { Logger } from 'pino';
import { loadFlagConfig } from '../flagging/flag-config';
import { loadSlaConfig } from '../sla/sla-config';
import { AnalyticsRetention } from './analytics-retention';
import { loadRetentionConfig } from './retention-config';

const DAY_MS = 86_400_000;
/** Sweeps an hour apart, 1,000 rows per statement. */
export const RETENTION_INTERVAL_MS = 3_600_000;
export const RETENTION_BATCH = 1_000;

/**
 * The retention sweep, configured from ANALYTICS_RETENTION_DAYS (not started). Never shorter than the late
 * cut-offs (FLAG_LATE_CUTOFF_MS, SLA_LATE_CUTOFF_MS): a job ends after its message was sent, so a job old
 * enough to be deleted is of a message that a replayed event no longer arms anything for — a redelivery
 * cannot arm a deleted job again.
 */
export function retentionFromEnv(prisma: PrismaClient, logger: Logger): AnalyticsRetention {
  const days = loadRetentionConfig().ANALYTICS_RETENTION_DAYS;
  const retentionMs = Math.max(days * DAY_MS, loadFlagConfig().FLAG_LATE_CUTOFF_MS, loadSlaConfig().SLA_LATE_CUTOFF_MS);
  return new AnalyticsRetention(prisma, logger, { retentionMs, intervalMs: RETENTION_INTERVAL_MS, batchSize: RETENTION_BATCH });
}
