import { z } from 'zod';

/** What one resource's import did: every record read from the source lands in one outcome. */
export const ImportCountsSchema = z.object({
  read: z.number().int(),
  created: z.number().int(),
  updated: z.number().int(),
  skipped: z.number().int(),
  failed: z.number().int(),
});
export type ImportCounts = z.infer<typeof ImportCountsSchema>;

export const ImportStatusSchema = z.enum(['queued', 'running', 'completed', 'failed', 'interrupted']);
export type ImportStatus = z.infer<typeof ImportStatusSchema>;

/** The resources in the order an import brings them (each needs the ids of those before it). */
export const IMPORT_RESOURCES = [
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
] as const;
export type ImportResource = (typeof IMPORT_RESOURCES)[number];

/** An import run as the API and the console show it. */
export const ImportSchema = z.object({
  import_id: z.uuid(),
  org_id: z.uuid(),
  /** The source's API base URL (…/v1), without a trailing slash. */
  source_url: z.string(),
  /** The source organization's id, once the source has answered. */
  source_org_id: z.string().nullable(),
  dry_run: z.boolean(),
  status: ImportStatusSchema,
  options: z.object({
    phones: z.array(z.string()).nullable(),
    since: z.string().nullable(),
    rate: z.number(),
    concurrency: z.number().int(),
  }),
  /** The step under way (a resource) and what of the message history is done. */
  progress: z.object({
    step: z.string().nullable(),
    chats_done: z.number().int(),
    chats_total: z.number().int().nullable(),
  }),
  report: z.record(z.string(), ImportCountsSchema),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  finished_at: z.string().nullable(),
});
export type Import = z.infer<typeof ImportSchema>;

export const ImportIdParams = z.object({ import_id: z.uuid({ error: 'import_id must be a uuid' }) });
