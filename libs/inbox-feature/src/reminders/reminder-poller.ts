import type { PrismaClient } from '@mapi/db';
import { OutboxWakeups } from '@mapi/events';
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

/** A reminder held by another claimer is looked at again this soon. */
const HELD_RETRY_MS = 25;

/**
 * Fires task reminders at their remind_at, in every replica: each round claims what is due (see
 * fireDueReminders: exactly once across replicas and restarts), then sleeps until the next pending
 * reminder is due by the database's clock — or until a reminder armed sooner, in any process, is
 * announced (LISTEN), or the idle poll. At rest it costs one transaction per idle poll; a restarted
 * replica fires what came due while it was down in its first round.
 */
export class ReminderPoller {
  private running = false;
  private loop?: Promise<void>;
  private timer?: NodeJS.Timeout;
  private wakeAt = Infinity;
  /** The earliest reminder announced since the current round began (the round may not have seen it). */
  private announced = Infinity;
  private resolveSleep?: () => void;
  private readonly wakeups?: OutboxWakeups;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly logger: Logger,
    private readonly options: ReminderPollerOptions,
  ) {
    if (options.listenUrl) this.wakeups = new OutboxWakeups(options.listenUrl, (payload) => this.armed(payload), logger, 1_000, REMINDER_CHANNEL);
  }

  async start(): Promise<void> {
    this.running = true;
    await this.wakeups?.start();
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wakeNow();
    await this.loop;
    await this.wakeups?.stop();
  }

  /** A reminder was armed for `payload` (epoch ms), or wake-ups (re)connected (no payload: look now). */
  armed(payload?: string): void {
    const at = payload === undefined ? Date.now() : Number(payload);
    if (!Number.isFinite(at)) return this.armed();
    this.announced = Math.min(this.announced, at);
    if (this.resolveSleep && at < this.wakeAt) this.sleepUntil(at);
  }

  private wakeNow(): void {
    clearTimeout(this.timer);
    this.wakeAt = Infinity;
    const resolve = this.resolveSleep;
    this.resolveSleep = undefined;
    resolve?.();
  }

  private sleepUntil(at: number): void {
    clearTimeout(this.timer);
    this.wakeAt = at;
    this.timer = setTimeout(() => this.wakeNow(), Math.max(0, at - Date.now()));
  }

  private async run(): Promise<void> {
    while (this.running) {
      let delay: number;
      this.announced = Infinity;
      try {
        const round = await fireDueReminders(this.prisma, this.options.batch);
        if (round.fired.length) this.options.onFired?.(round);
        if (round.fired.length === this.options.batch) continue;
        const idle = this.wakeups?.listening ? this.options.idlePollMs : this.options.fallbackPollMs;
        delay = round.nextDueInMs === null ? idle : Math.min(idle, Math.max(round.nextDueInMs, HELD_RETRY_MS));
      } catch (err) {
        this.logger.warn({ err }, 'firing task reminders failed; retrying');
        delay = 1_000;
      }
      if (!this.running) break;
      await new Promise<void>((resolve) => {
        this.resolveSleep = resolve;
        this.sleepUntil(Math.min(Date.now() + delay, this.announced));
      });
    }
  }
}
