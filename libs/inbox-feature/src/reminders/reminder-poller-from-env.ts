import type { PrismaClient } from '@mapi/db';
import type { Logger } from 'pino';
import { loadReminderConfig } from './reminder-config';
import { ReminderPoller } from './reminder-poller';

/** The inbox's reminder poller, configured from TASK_REMINDER_* (not started: the service starts it with its other work). */
export function reminderPollerFromEnv(prisma: PrismaClient, logger: Logger, databaseUrl: string): ReminderPoller {
  const config = loadReminderConfig();
  return new ReminderPoller(prisma, logger, {
    batch: config.TASK_REMINDER_BATCH,
    idlePollMs: config.TASK_REMINDER_IDLE_POLL_MS,
    fallbackPollMs: config.TASK_REMINDER_FALLBACK_POLL_MS,
    listenUrl: databaseUrl,
  });
}
