import type { ImportCounts, ImportItemResult } from '@mapi/contracts';

export const emptyCounts = (): ImportCounts => ({ read: 0, created: 0, updated: 0, skipped: 0, failed: 0 });

/** Per resource counts of one run; a resumed run starts from what its earlier part counted. */
export class Report {
  readonly counts: Record<string, ImportCounts>;

  constructor(initial: Record<string, ImportCounts> = {}) {
    this.counts = structuredClone(initial);
  }

  of(resource: string): ImportCounts {
    return (this.counts[resource] ??= emptyCounts());
  }

  read(resource: string, n: number): void {
    this.of(resource).read += n;
  }

  add(resource: string, results: readonly Pick<ImportItemResult, 'outcome'>[]): void {
    const c = this.of(resource);
    for (const r of results) c[r.outcome]++;
  }
}
