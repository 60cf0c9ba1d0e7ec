/**
 * A task run every `intervalMs` on a timer, never two rounds at once: the first round after
 * `firstDelayMs`, the next `intervalMs` after a round ends (a slow round delays the next, none
 * overlaps). A round's failure goes to `onError` and the next round comes as planned. `stop()`
 * clears the timer and waits for a round under way. The retention sweepers of the services run on it.
 */
export class PeriodicTask {
  private timer?: NodeJS.Timeout;
  private running?: Promise<unknown>;
  private stopped = false;

  constructor(
    private readonly round: () => Promise<void>,
    private readonly options: { intervalMs: number; firstDelayMs: number; onError: (err: unknown) => void },
  ) {}

  start(): void {
    this.stopped = false;
    const tick = () => {
      this.running = this.round()
        .catch(this.options.onError)
        .finally(() => {
          if (!this.stopped) this.timer = setTimeout(tick, this.options.intervalMs);
        });
    };
    this.timer = setTimeout(tick, this.options.firstDelayMs);
  }

  /** Whether stop() was called: a long round may end early when it is. */
  get isStopped(): boolean {
    return this.stopped;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }
}
