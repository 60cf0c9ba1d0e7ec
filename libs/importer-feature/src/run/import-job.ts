import type { ImportItemResult, ImportRows } from '@mapi/contracts';
import type { Prisma } from '@mapi/db';
import type { Logger } from '@mapi/platform';
import type { FailureRepository } from '../repositories/failure-repository';
import type { IdMapRepository } from '../repositories/id-map-repository';
import { LEASE_MS, type ImportRunRepository, type ImportRunRow } from '../repositories/import-run-repository';
import type { MediaCopier } from '../media/media-copier';
import type { SourceClient } from '../source/source-client';
import { SourceError } from '../source/source-error';
import type { OwnedResource, OwnerItem, Owners } from './owners';
import { Report } from './report';

export interface JobParts {
  runs: ImportRunRepository;
  idMap: IdMapRepository;
  failures: FailureRepository;
  owners: Owners;
  source: SourceClient;
  /** Copies message media into our storage; null when IMPORT_MEDIA=false (messages keep the source's links). */
  media: MediaCopier | null;
  logger: Logger;
}

/** Where a run is: finished steps, the history step's place, and what the console shows. */
export interface Checkpoint {
  done: string[];
  /** chat_id → offset reached in its messages (newest first), for a chat cut off mid-history. */
  partial: Record<string, number>;
  progress: { step: string | null; chats_done: number; chats_total: number | null };
}

export interface StoredOptions {
  phones: string[] | null;
  since: string | null;
  concurrency: number;
}

export type Step = { name: string; run: (job: ImportJob) => Promise<void> };

/**
 * One run of an import: the steps in order, each writing through the owners' import RPCs, with its
 * checkpoint, report, id map and failures saved as it goes, so that a run killed at any point is
 * resumed by the next start of the same source without reading again what it had finished.
 */
export class ImportJob {
  readonly report: Report;
  readonly checkpoint: Checkpoint;
  /** resource → source id → id here (every id this source's imports brought, kept ones too). */
  private readonly maps = new Map<string, Map<string, string>>();
  /** Source phone numbers and ids → our phone_id (filled by the phones step). */
  readonly phones = new Map<string, string>();
  sourceOrg: string | null;
  private lastSave = 0;
  private renewing: NodeJS.Timeout | null = null;

  constructor(
    readonly parts: JobParts,
    readonly run: ImportRunRow,
    readonly rows: ImportRows,
  ) {
    this.report = new Report((run.report ?? {}) as never);
    const cp = (run.checkpoint ?? {}) as Partial<Checkpoint>;
    this.checkpoint = {
      done: cp.done ?? [],
      partial: cp.partial ?? {},
      progress: cp.progress ?? { step: null, chats_done: 0, chats_total: null },
    };
    this.sourceOrg = run.source_org;
  }

  get orgId(): string {
    return this.run.org_id;
  }
  get dryRun(): boolean {
    return this.run.dry_run;
  }
  get options(): StoredOptions {
    const o = (this.run.options ?? {}) as Partial<StoredOptions>;
    return { phones: o.phones ?? null, since: o.since ?? null, concurrency: o.concurrency ?? 4 };
  }
  /** The id-map key of this source: the same organization read from the same deployment. */
  get sourceKey(): string {
    return `${this.run.source_url}#${this.sourceOrg ?? ''}`;
  }

  async execute(steps: readonly Step[]): Promise<void> {
    this.renewing = setInterval(() => void this.save(true).catch(() => undefined), LEASE_MS / 3);
    try {
      for (const step of steps) {
        if (this.checkpoint.done.includes(step.name)) continue;
        this.checkpoint.progress.step = step.name;
        await this.save(true);
        await step.run(this);
        this.checkpoint.done.push(step.name);
        await this.save(true);
      }
      this.checkpoint.progress.step = null;
      await this.finish('completed', null);
    } catch (error) {
      const e =
        error instanceof SourceError
          ? { code: error.code, message: error.message }
          : { code: 'IMPORT_FAILED', message: (error as Error).message };
      this.parts.logger.warn({ import_id: this.run.import_id, code: e.code, err: e.message }, 'import stopped');
      await this.finish('failed', e);
    } finally {
      if (this.renewing) clearInterval(this.renewing);
    }
  }

  async idMapOf(resource: string): Promise<Map<string, string>> {
    let map = this.maps.get(resource);
    if (!map) {
      map = await this.parts.idMap.load(this.orgId, this.sourceKey, resource);
      this.maps.set(resource, map);
    }
    return map;
  }

  /** The id here of a source record of `resource` (kept or mapped), when an import brought it. */
  targetOf(resource: string, sourceId: string): string | undefined {
    return this.maps.get(resource)?.get(sourceId);
  }

  /**
   * Writes items through their owner (a dry run only counts what would happen, from what earlier runs
   * of this source brought): counts outcomes, records failures and every id the owner answered.
   */
  async apply(resource: OwnedResource, items: OwnerItem[], tracked = true): Promise<ImportItemResult[]> {
    if (!items.length) return [];
    const map = tracked ? await this.idMapOf(resource) : null;
    for (const item of items) {
      const known = map?.get(item.source_id);
      if (known) item.target_id = known;
    }
    const results = this.dryRun
      ? items.map((i): ImportItemResult => ({
          source_id: i.source_id,
          target_id: i.target_id ?? null,
          outcome: i.target_id ? 'skipped' : 'created',
        }))
      : await this.parts.owners.write(resource, items);
    this.report.add(resource, results);
    const failures = results
      .filter((r) => r.outcome === 'failed')
      .map((r) => ({ resource, source_id: r.source_id, reason: r.reason ?? 'refused' }));
    if (!this.dryRun) {
      await this.parts.failures.record(this.orgId, this.run.import_id, failures);
      if (map) {
        const fresh = results.filter((r) => r.target_id && map.get(r.source_id) !== r.target_id) as {
          source_id: string;
          target_id: string;
        }[];
        await this.parts.idMap.record(this.orgId, this.sourceKey, this.run.import_id, resource, fresh);
        for (const r of fresh) map.set(r.source_id, r.target_id);
      }
    }
    await this.save(false);
    return results;
  }

  /** Saves checkpoint, report and lease; at most once a second unless forced. */
  async save(force: boolean): Promise<void> {
    const now = Date.now();
    if (!force && now - this.lastSave < 1000) return;
    this.lastSave = now;
    await this.parts.runs.save(this.orgId, this.run.import_id, {
      source_org: this.sourceOrg,
      checkpoint: this.checkpoint as unknown as Prisma.InputJsonValue,
      report: this.report.counts as unknown as Prisma.InputJsonValue,
      lease_until: new Date(now + LEASE_MS),
    });
  }

  private async finish(status: 'completed' | 'failed', error: { code: string; message: string } | null): Promise<void> {
    await this.parts.runs.save(this.orgId, this.run.import_id, {
      status,
      error: (error ?? undefined) as Prisma.InputJsonValue | undefined,
      checkpoint: this.checkpoint as unknown as Prisma.InputJsonValue,
      report: this.report.counts as unknown as Prisma.InputJsonValue,
      lease_until: null,
      finished_at: status === 'completed' ? new Date() : null,
      source_org: this.sourceOrg,
    });
  }
}
