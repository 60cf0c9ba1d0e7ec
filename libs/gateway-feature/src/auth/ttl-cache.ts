import { ErrorCode, ServiceError } from '@mapi/contracts';
import { isDependencyUnavailable } from '@mapi/platform';

/** A load failed because something it needs is away (a database, a service answering 503), not because the key is bad. */
export const isUnavailable = (err: unknown): boolean =>
  isDependencyUnavailable(err) || (err instanceof ServiceError && err.code === ErrorCode.SERVICE_UNAVAILABLE_ERROR);

/**
 * A small map whose entries expire; bounded so a flood of unknown keys cannot grow it without end.
 * An expired entry is kept `staleMs` longer, for getOrLoad to answer while its source is away.
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; expires: number }>();
  private readonly loading = new Map<string, Promise<V>>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
    private readonly staleMs = 0,
  ) {}

  get(key: string): V | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (hit.expires <= Date.now()) {
      if (hit.expires + this.staleMs <= Date.now()) this.entries.delete(key);
      return undefined;
    }
    return hit.value;
  }

  set(key: string, value: V): void {
    if (this.ttlMs <= 0) return;
    if (!this.entries.has(key) && this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, { value, expires: Date.now() + this.ttlMs });
  }

  /**
   * The key's value: from the cache while fresh, else loaded once for every concurrent caller (a
   * thousand requests that find an entry expired make one query, not a thousand). `keep` says
   * whether a loaded value is cached. A load that fails because its source is away (isUnavailable)
   * answers the entry that expired less than `staleMs` ago, if there is one: an outage, and the
   * moments after it, do not fail every request the instant an entry expires.
   */
  async getOrLoad(key: string, load: () => Promise<V>, keep: (value: V) => boolean = () => true): Promise<V> {
    const fresh = this.get(key);
    if (fresh !== undefined) return fresh;
    let pending = this.loading.get(key);
    if (!pending) {
      pending = load().finally(() => this.loading.delete(key));
      this.loading.set(key, pending);
      pending.then(
        (value) => keep(value) && this.set(key, value),
        () => undefined,
      );
    }
    try {
      return await pending;
    } catch (err) {
      const stale = this.entries.get(key);
      if (stale && isUnavailable(err) && stale.expires + this.staleMs > Date.now()) return stale.value;
      throw err;
    }
  }

  /** Drops every entry whose value matches (e.g. the sessions of a member who signed out everywhere). */
  deleteWhere(match: (value: V) => boolean): void {
    for (const [key, hit] of this.entries) if (match(hit.value)) this.entries.delete(key);
  }
}
