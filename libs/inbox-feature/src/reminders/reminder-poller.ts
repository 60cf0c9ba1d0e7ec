import type { PrismaClient } from '@mapi/db';
import { DueWorkLoop } from '@mapi/events';
import type { Logger } from 'pino';
import { REMINDER_CHANNEL } from '../repositories/task-repository';
import { fireDueReminders, type ReminderRound } from './due-reminders';

export interface ReminderPollerOptions {
  /** Reminders per claim transaction. */
  batch: number;
  /** Longest sleep while wake-ups work (nothing due sooner). */
  idlePollMs: number;
  /** Longest sleep while they do not (no listenUrl, or its connection is down). */
  fallbackPollMs: number;
  /** Postgres URL for wake-ups (LISTEN mapi_task_reminders): a reminder armed in any process is planned for at once. */
  listenUrl?: string;
  /** Called after each round that fired something (metrics, tests). */
  onFired?: (round: ReminderRound) => void;
}

/**
 * Fires task reminders at their remind_at, in every replica: each round claims what is due (see
 * fireDueReminders: exactly once across replicas and restarts), then sleeps (DueWorkLoop) until the
 * next pending reminder is due by the database's clock — or until a reminder armed sooner, in any
 * process, is announced (LISTEN, its remind_at as payload: the earliest announced time is kept), or
 * the idle poll. At rest it costs one transaction per idle poll.
 */
export class ReminderPoller {
  private readonly loop: DueWorkLoop;

  constructor(
    private readonly prisma: PrismaClient,
    logger: Logger,
    private readonly options: ReminderPollerOptions,
  ) {
    this.loop = new DueWorkLoop(() => this.round(), logger, {
      idlePollMs: options.idlePollMs,
      fallbackPollMs: options.fallbackPollMs,
      listenUrl: options.listenUrl,
      channel: REMINDER_CHANNEL,
      what: 'firing task reminders',
    });
  }

  start(): Promise<void> {
    return this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** A reminder was armed for `payload` (epoch ms), or wake-ups (re)connected (no payload: look now). */
  armed(payload?: string): void {
    this.loop.announce(payload === undefined ? undefined : Number(payload));
  }

  private async round(): Promise<{ more: boolean; nextDueInMs: number | null }> {
    const round = await fireDueReminders(this.prisma, this.options.batch);
    if (round.fired.length) this.options.onFired?.(round);
    return { more: round.fired.length === this.options.batch, nextDueInMs: round.nextDueInMs };
  }
}
