/** A small map whose entries expire; bounded so a flood of unknown keys cannot grow it without end. */
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; expires: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  get(key: string): V | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (hit.expires <= Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return hit.value;
  }

  set(key: string, value: V): void {
    if (this.ttlMs <= 0) return;
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, { value, expires: Date.now() + this.ttlMs });
  }

  /** Drops every entry whose value matches (e.g. the sessions of a member who signed out everywhere). */
  deleteWhere(match: (value: V) => boolean): void {
    for (const [key, hit] of this.entries) if (match(hit.value)) this.entries.delete(key);
  }
}
