import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { ImportSchema } from '../import/import.schema';

const httpUrl = z
  .string({ error: 'from must be a string' })
  .trim()
  .refine((v) => {
    try {
      const u = new URL(v);
      return (u.protocol === 'http:' || u.protocol === 'https:') && !u.username && !u.password;
    } catch {
      return false;
    }
  }, "from must be the source API's http(s) base URL, e.g. https://api.example.com/v1");

/** Rows the source's public API does not list, as `@periskope/types` names their tables. */
export const ImportRowsSchema = z.object({
  tbl_org_workflows: z.array(z.record(z.string(), z.unknown())).max(10_000).optional(),
  tbl_org_tasks: z.array(z.record(z.string(), z.unknown())).max(100_000).optional(),
  tbl_org_labels: z.array(z.record(z.string(), z.unknown())).max(10_000).optional(),
});
export type ImportRows = z.infer<typeof ImportRowsSchema>;

export const StartImportBody = z.object({
  from: httpUrl,
  /** The source's API token: used for this run only, never stored. */
  token: z.string({ error: 'token must be a string' }).trim().min(1, 'token must not be empty').max(4096),
  /** Source phones to bring (phone_ids or numbers); absent: every phone. */
  phones: z.array(z.string().trim().min(1).max(100)).min(1, 'phones must name at least one phone').max(100).optional(),
  /** Only messages at or after this time (ISO 8601). */
  since: z.iso.datetime({ offset: true, error: 'since must be an ISO 8601 date-time, e.g. 2026-01-01T00:00:00Z' }).optional(),
  dry_run: z.boolean({ error: 'dry_run must be a boolean' }).optional(),
  /** Requests per second to the source (default 20). */
  rate: z.number().positive().max(1000).optional(),
  /** Requests in flight to the source at most (default 4). */
  concurrency: z.number().int().min(1).max(32).optional(),
  rows: ImportRowsSchema.optional(),
});
export type StartImportBody = z.infer<typeof StartImportBody>;

export const StartImportRpc = defineRpc({
  subject: 'imports.v1.start',
  service: 'importer',
  request: z.object({ ctx: RequestContextSchema, body: StartImportBody }),
  response: ImportSchema,
});
export type StartImportRequest = z.infer<typeof StartImportRpc.request>;

export const StartImportRoute = defineRoute({
  operationId: 'startImport',
  method: 'POST',
  path: '/imports',
  tag: 'imports',
  summary: 'Import an organization from the hosted service',
  description:
    'Starts (or resumes) an import of the source organization behind `token` at `from` into this organization, and answers 202 ' +
    'with the run; follow it with GET /imports/{import_id}. A run of the same source already under way is answered as it is (409 ' +
    'when its dry_run differs). The token is used for this run only and never stored. Owners only (docs/services/imports.md).',
  body: StartImportBody,
  phone: 'none',
  role: 'owner',
  rpc: StartImportRpc,
  successStatus: 202,
  response: ImportSchema,
});
