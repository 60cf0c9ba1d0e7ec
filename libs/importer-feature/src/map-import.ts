import type { Import, ImportCounts } from '@mapi/contracts';
import type { ImportRunRow } from './repositories/import-run-repository';

interface StoredOptions {
  phones?: string[] | null;
  since?: string | null;
  rate?: number;
  concurrency?: number;
}
interface StoredProgress {
  step?: string | null;
  chats_done?: number;
  chats_total?: number | null;
}

/** A run row as the API's import object; a running run whose lease lapsed reads `interrupted`. */
export function mapImport(row: ImportRunRow, now = new Date()): Import {
  const options = (row.options ?? {}) as StoredOptions;
  const checkpoint = (row.checkpoint ?? {}) as { progress?: StoredProgress };
  const progress = checkpoint.progress ?? {};
  const lapsed = row.status === 'running' && (!row.lease_until || row.lease_until < now);
  return {
    import_id: row.import_id,
    org_id: row.org_id,
    source_url: row.source_url,
    source_org_id: row.source_org,
    dry_run: row.dry_run,
    status: lapsed ? 'interrupted' : (row.status as Import['status']),
    options: {
      phones: options.phones ?? null,
      since: options.since ?? null,
      rate: options.rate ?? 20,
      concurrency: options.concurrency ?? 4,
    },
    progress: { step: progress.step ?? null, chats_done: progress.chats_done ?? 0, chats_total: progress.chats_total ?? null },
    report: (row.report ?? {}) as Record<string, ImportCounts>,
    error: (row.error as Import['error']) ?? null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    finished_at: row.finished_at?.toISOString() ?? null,
  };
}
