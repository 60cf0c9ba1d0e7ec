import type { Logger } from '@mapi/platform';
import type { KbOrgIndexRepository } from '../../repositories/kb-org-index-repository';

export interface IndexLargeOrganizationsOptions {
  /** An organization with at least this many entries gets its own HNSW index (0: none is ever built). */
  minEntries: number;
  /** maintenance_work_mem of the building session. */
  maintenanceWorkMem: string;
}

export interface IndexRunResult {
  /** false: another replica's run held the lock; nothing was done. */
  ran: boolean;
  created: string[];
  dropped: string[];
}

/**
 * Gives every large organization a graph of its own: a partial HNSW index `WHERE org_id = <id>`
 * (KbEntryRepository.search needs no change: its `org_id = <id>` predicate lets the planner pick the
 * organization's index, walked without a filter, instead of the global one filtered to the organization).
 * Smaller organizations keep the global index. Run periodically by every replica; one at a time builds
 * (a session lock), one index per run at most so a run never holds the lock for long, largest
 * organization first. Left invalid by a failed or interrupted build → dropped and built again. An
 * organization that shrank below half the threshold loses its index (the hysteresis keeps one near the
 * threshold from being built and dropped in turn). Indexes are built over halfvec; an organization that
 * still has an earlier full-vector index gets its halfvec one like an organization without any (largest
 * first), and the earlier one is dropped once the new one is valid — searches never go without a graph.
 */
export class IndexLargeOrganizations {
  constructor(
    private readonly indexes: KbOrgIndexRepository,
    private readonly options: IndexLargeOrganizationsOptions,
    private readonly logger?: Logger,
  ) {}

  async run(): Promise<IndexRunResult> {
    const result = await this.indexes.withLock(async (s) => {
      const created: string[] = [];
      const dropped: string[] = [];
      const existing = await s.list();
      for (const idx of existing.filter((i) => !i.valid && !i.building)) {
        await s.drop(idx.name); // a build that failed or was interrupted: built again below
        dropped.push(idx.name);
      }
      const min = this.options.minEntries;
      const kept = existing.filter((i) => i.valid);
      const drop = async (name: string) => {
        await s.drop(name);
        dropped.push(name);
      };
      const halfvecOf = new Set(kept.filter((i) => i.kind === 'halfvec').map((i) => i.orgId));
      for (const idx of kept) {
        if (min > 0 && idx.kind === 'vector' && halfvecOf.has(idx.orgId))
          await drop(idx.name); // replaced
        else if (min <= 0 || (await s.count(idx.orgId)) < Math.ceil(min / 2)) await drop(idx.name);
      }
      if (min <= 0) return { created, dropped };
      const has = new Set(existing.filter((i) => i.kind === 'halfvec' && (i.valid || i.building)).map((i) => i.orgId));
      const todo = [...(await s.orgSizes(min))].filter(([org]) => !has.has(org)).sort((a, b) => b[1] - a[1]);
      if (todo.length > 0) {
        const [org, n] = todo[0];
        const started = Date.now();
        created.push(await s.create(org, this.options.maintenanceWorkMem));
        this.logger?.info(
          { org_id: org, entries: n, ms: Date.now() - started, waiting: todo.length - 1 },
          'knowledge-base: organization index built',
        );
        const replaced = kept.find((i) => i.orgId === org && i.kind === 'vector' && !dropped.includes(i.name));
        if (replaced) await drop(replaced.name);
      }
      return { created, dropped };
    });
    return result ? { ran: true, ...result } : { ran: false, created: [], dropped: [] };
  }
}
