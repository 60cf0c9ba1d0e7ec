/** An import run as GET /v1/imports answers it (docs/services/imports.md). */
export interface ImportRun {
  import_id: string;
  source_url: string;
  dry_run: boolean;
  status: 'queued' | 'running' | 'completed' | 'failed' | 'interrupted';
  progress: { step: string | null; chats_done: number; chats_total: number | null };
  report: Record<string, { read: number; created: number; updated: number; skipped: number; failed: number }>;
  error: { code: string; message: string } | null;
  created_at: string;
  finished_at: string | null;
}

export const RESOURCE_ORDER = [
  'phones',
  'labels',
  'custom_properties',
  'contacts',
  'chats',
  'messages',
  'reactions',
  'tickets',
  'notes',
  'tasks',
  'faqs',
  'documents',
  'webhooks',
  'workflows',
];

/** The report's rows in the order an import brings the resources. */
export function reportRows(
  run: ImportRun,
): { resource: string; read: number; created: number; updated: number; skipped: number; failed: number }[] {
  return Object.entries(run.report)
    .map(([resource, c]) => ({ resource, ...c }))
    .sort((a, b) => RESOURCE_ORDER.indexOf(a.resource) - RESOURCE_ORDER.indexOf(b.resource));
}

/** The history's share done, 0–100, or null before the history step knows its chats. */
export function percentDone(run: ImportRun): number | null {
  const { chats_done: done, chats_total: total } = run.progress;
  if (run.status === 'completed') return 100;
  if (!total) return null;
  return Math.min(100, Math.round((done / total) * 100));
}

export const isLive = (run: ImportRun) => run.status === 'running' || run.status === 'queued';

/** The start request from the form's fields (blank ones left out). */
export function startBody(fields: { from: string; token: string; phones: string; since: string; dryRun: boolean }) {
  const phones = fields.phones
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  return {
    from: fields.from.trim(),
    token: fields.token.trim(),
    ...(phones.length ? { phones } : {}),
    ...(fields.since.trim() ? { since: new Date(fields.since).toISOString() } : {}),
    ...(fields.dryRun ? { dry_run: true } : {}),
  };
}
