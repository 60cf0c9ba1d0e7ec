import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { MediaAccessSchema, accessFields, rejectExpiryWithPublic } from '../common/media-access.schema';

/** Most URLs in one batch (spec 4.9); more, or none, is a 422. */
export const MAX_BATCH_URLS = 1000;

export const MigrateMediaUrlsBatchBody = z
  .object({
    // Elements are checked one by one by the service (a non-string fails only its own result), so
    // that one bad entry never fails the batch.
    urls: z
      .array(z.unknown().describe('a legacy or media URL'), { error: 'urls is required and must be an array of URLs' })
      .min(1, 'urls must contain at least one URL')
      .max(MAX_BATCH_URLS, `urls must contain at most ${MAX_BATCH_URLS} URLs`),
    ...accessFields,
  })
  .superRefine(rejectExpiryWithPublic);
export type MigrateMediaUrlsBatchBody = z.infer<typeof MigrateMediaUrlsBatchBody>;

export const MigrateMediaUrlResult = z.object({
  index: z.number().int(),
  success: z.boolean(),
  url: z.string().optional(),
  error: z.string().optional(),
});
export type MigrateMediaUrlResult = z.infer<typeof MigrateMediaUrlResult>;

export const MigrateMediaUrlsBatchResponse = z.object({
  results: z.array(MigrateMediaUrlResult),
  migrated_count: z.number().int(),
  failed_count: z.number().int(),
  access: MediaAccessSchema,
  expires_in_seconds: z.number().int().optional(),
});
export type MigrateMediaUrlsBatchResponse = z.infer<typeof MigrateMediaUrlsBatchResponse>;

export const MigrateMediaUrlsBatchRpc = defineRpc({
  subject: 'media.v1.migrate-url-batch',
  service: 'media',
  request: z.object({ ctx: RequestContextSchema, body: MigrateMediaUrlsBatchBody }),
  response: MigrateMediaUrlsBatchResponse,
});
export type MigrateMediaUrlsBatchRequest = z.infer<typeof MigrateMediaUrlsBatchRpc.request>;

export const MigrateMediaUrlsBatchRoute = defineRoute({
  operationId: 'migrateMediaUrlsBatch',
  method: 'POST',
  path: '/media/migrate-url/batch',
  tag: 'media',
  summary: 'Convert up to 1000 media URLs; each succeeds or fails on its own',
  description: 'results[i] answers urls[i]. One token is created and shared by every private link of the batch.',
  body: MigrateMediaUrlsBatchBody,
  phone: 'none',
  rpc: MigrateMediaUrlsBatchRpc,
  successStatus: 200,
  response: MigrateMediaUrlsBatchResponse,
});
