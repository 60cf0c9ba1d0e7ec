import type { Logger } from 'pino';
import { OutboxWakeups } from './outbox-wakeups';

/** What one round did: `more` (a full batch: go again at once), and how long until the next item is due (null: nothing pending). */
export interface DueRound {
  more: boolean;
  nextDueInMs: number | null;
}

export interface DueWorkLoopOptions {
  /** Longest sleep while wake-ups work (nothing due sooner). */
  idlePollMs: number;
  /** Longest sleep while they do not (no listenUrl, or its connection is down). */
  fallbackPollMs: number;
  /** Postgres URL and channel for wake-ups (LISTEN): work made due in any process is announced. */
  listenUrl?: string;
  channel: string;
  /** What the log says when a round throws. */
  what: string;
}

/** An item held by another claimer is looked at again this soon after its lease ends. */
export const HELD_RETRY_MS = 25;

/**
 * The loop of a worker that claims due rows (task reminders, workflow steps) in every replica: each
 * round claims what is due, then the loop sleeps until the next item is due by the database's clock
 * — or until work announced (a LISTEN payload of epoch ms, or `announce(at)` in this process) comes
 * due sooner, or the idle poll. The earliest announced time since the round began is kept (the
 * round may not have seen it); an announcement without a time means "now". At rest it costs one
 * round per idle poll; a restarted replica finds what came due while it was down in its first round.
 */
export class DueWorkLoop {
  private running = false;
  private loop?: Promise<void>;
  private timer?: NodeJS.Timeout;
  private wakeAt = Infinity;
  /** The earliest work announced since the current round began. */
  private announced = Infinity;
  private resolveSleep?: () => void;
  private readonly wakeups?: OutboxWakeups;

  constructor(
    private readonly round: () => Promise<DueRound>,
    private readonly logger: Logger,
    private readonly options: DueWorkLoopOptions,
  ) {
    if (options.listenUrl)
      this.wakeups = new OutboxWakeups(
        options.listenUrl,
        (payload) => this.announce(payload === undefined ? undefined : Number(payload)),
        logger,
        1_000,
        options.channel,
      );
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

  /** Work comes due at `at` (epoch ms; absent or not a number: now). */
  announce(at?: number): void {
    const when = at === undefined || !Number.isFinite(at) ? Date.now() : at;
    this.announced = Math.min(this.announced, when);
    if (this.resolveSleep && when < this.wakeAt) this.sleepUntil(when);
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
        const { more, nextDueInMs } = await this.round();
        if (more) continue;
        const idle = this.wakeups?.listening ? this.options.idlePollMs : this.options.fallbackPollMs;
        delay = nextDueInMs === null ? idle : Math.min(idle, Math.max(nextDueInMs, HELD_RETRY_MS));
      } catch (err) {
        this.logger.warn({ err }, `${this.options.what} failed; retrying`);
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
