import type { PrismaClient } from '@mapi/db';
import { DueWorkLoop } from '@mapi/events';
import type { Logger } from 'pino';
import { SLA_CHANNEL } from './apply-sla-facts';
import { fireDueBreaches, type BreachRound } from './fire-breaches';

export interface SlaPollerOptions {
  /** Breaches per claim transaction. */
  batch: number;
  /** A deadline fires this long after it passed. */
  fireDelayMs: number;
  /** …and not sooner than this after the wait was armed. */
  armGraceMs: number;
  idlePollMs: number;
  fallbackPollMs: number;
  /** Postgres URL for wake-ups (LISTEN mapi_sla_timers): a wait armed in any process is planned for at once. */
  listenUrl?: string;
  /** Called after each round that fired something (metrics, tests). */
  onFired?: (round: BreachRound) => void;
}

/**
 * Fires SLA breaches at their deadlines, in every replica (the reminders' loop, decision 0052): each
 * round claims what is due (fireDueBreaches: exactly once across replicas and restarts), then sleeps
 * until the next pending deadline by the database's clock, or until a wait armed sooner is announced.
 */
export class SlaPoller {
  private readonly loop: DueWorkLoop;

  constructor(
    private readonly prisma: PrismaClient,
    logger: Logger,
    private readonly options: SlaPollerOptions,
  ) {
    this.loop = new DueWorkLoop(() => this.round(), logger, {
      idlePollMs: options.idlePollMs,
      fallbackPollMs: options.fallbackPollMs,
      listenUrl: options.listenUrl,
      channel: SLA_CHANNEL,
      what: 'firing SLA breaches',
    });
  }

  start(): Promise<void> {
    return this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** A wait was armed in this process for `at` (epoch ms). */
  armed(at: number): void {
    this.loop.announce(at);
  }

  private async round(): Promise<{ more: boolean; nextDueInMs: number | null }> {
    const round = await fireDueBreaches(this.prisma, this.options.batch, this.options.fireDelayMs, this.options.armGraceMs);
    if (round.fired.length) this.options.onFired?.(round);
    return { more: round.fired.length === this.options.batch, nextDueInMs: round.nextDueInMs };
  }
}
