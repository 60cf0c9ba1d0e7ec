/**
 * Politeness toward the source: at most `concurrency` requests in flight, request starts spaced to
 * `rate` per second, and a pause for everyone when the source says so (429 Retry-After, an exhausted
 * X-RateLimit window).
 */
export class Pacer {
  private inFlight = 0;
  private readonly waiting: (() => void)[] = [];
  private nextStart = 0;
  private pausedUntil = 0;

  constructor(
    private readonly rate: number,
    private readonly concurrency: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Runs `task` once a slot is free and its start time has come. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.inFlight >= this.concurrency) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.inFlight++;
    try {
      const at = Math.max(this.now(), this.nextStart, this.pausedUntil);
      this.nextStart = at + 1000 / this.rate;
      const wait = at - this.now();
      if (wait > 0) await sleep(wait);
      return await task();
    } finally {
      this.inFlight--;
      this.waiting.shift()?.();
    }
  }

  /** No request starts before `ms` from now (the source asked for the pause). */
  pause(ms: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, this.now() + ms);
  }

  get active(): number {
    return this.inFlight;
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
