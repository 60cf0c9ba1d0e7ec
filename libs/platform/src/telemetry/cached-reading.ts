/**
 * A reading taken at scrape time (a count from Redis or Postgres) kept for `cacheMs` and shared by
 * concurrent reads, so several Prometheus replicas scraping at once cost one count per `cacheMs`.
 * A failed reading is not kept: the next read tries again.
 */
export class CachedReading<T> {
  private last?: { at: number; value: Promise<T> };

  constructor(
    private readonly take: () => Promise<T>,
    private readonly cacheMs: number,
  ) {}

  read(): Promise<T> {
    const now = Date.now();
    if (this.last && now - this.last.at < this.cacheMs) return this.last.value;
    const value = this.take();
    this.last = { at: now, value };
    value.catch(() => {
      if (this.last?.value === value) this.last = undefined;
    });
    return value;
  }
}
