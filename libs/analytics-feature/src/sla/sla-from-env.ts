import type { PrismaClient } from '@mapi/db';
import type { NatsConnection } from 'nats';
import type { Logger } from 'pino';
import { loadSlaConfig } from './sla-config';
import { SlaIntake } from './sla-intake';
import { SlaPoller } from './sla-poller';

/** The SLA timers of the analytics service, configured from SLA_* (not started: the service starts them with its other work). */
export function slaTimersFromEnv(
  nc: NatsConnection,
  namespace: string,
  prisma: PrismaClient,
  logger: Logger,
  listenUrl: string,
): { intake: SlaIntake; poller: SlaPoller } {
  const config = loadSlaConfig();
  const poller = new SlaPoller(prisma, logger, {
    batch: config.SLA_BATCH,
    fireDelayMs: config.SLA_FIRE_DELAY_MS,
    armGraceMs: config.SLA_ARM_GRACE_MS,
    idlePollMs: config.SLA_IDLE_POLL_MS,
    fallbackPollMs: config.SLA_FALLBACK_POLL_MS,
    listenUrl,
  });
  const intake = new SlaIntake(nc, namespace, prisma, logger, {
    minuteMs: config.SLA_MINUTE_MS,
    lateCutoffMs: config.SLA_LATE_CUTOFF_MS,
    onArmed: (waits) => poller.armed(Math.min(...waits.map((w) => w.due_at)) + config.SLA_FIRE_DELAY_MS),
  });
  return { intake, poller };
}
