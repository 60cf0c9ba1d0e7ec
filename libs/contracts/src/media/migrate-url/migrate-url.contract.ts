import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { MediaAccessSchema, MediaErrorBodySchema, accessFields, rejectExpiryWithPublic } from '../common/media-access.schema';

export const MigrateMediaUrlBody = z
  .object({
    url: z.string({ error: 'url is required and must be a string' }),
    ...accessFields,
  })
  .superRefine(rejectExpiryWithPublic);
export type MigrateMediaUrlBody = z.infer<typeof MigrateMediaUrlBody>;

export const MigrateMediaUrlResponse = z.object({
  url: z.string(),
  access: MediaAccessSchema,
  /** Present only for private links. */
  expires_in_seconds: z.number().int().optional(),
});
export type MigrateMediaUrlResponse = z.infer<typeof MigrateMediaUrlResponse>;

export const MigrateMediaUrlRpc = defineRpc({
  subject: 'media.v1.migrate-url',
  service: 'media',
  request: z.object({ ctx: RequestContextSchema, body: MigrateMediaUrlBody }),
  response: MigrateMediaUrlResponse,
});
export type MigrateMediaUrlRequest = z.infer<typeof MigrateMediaUrlRpc.request>;

export const MigrateMediaUrlRoute = defineRoute({
  operationId: 'migrateMediaUrl',
  method: 'POST',
  path: '/media/migrate-url',
  tag: 'media',
  summary: 'Convert a legacy media URL (or refresh a media link) into the current media link',
  description:
    "Private links carry an expiring `jwt` query token; public links are bare. Without `access`, the organization's " +
    'media-privacy setting decides (private unless changed). A URL that is not a legacy or media URL of this service, ' +
    'or names a bucket the service does not own, answers 422 `{ error }`; a file of another organization answers 403 `{ error }`.',
  body: MigrateMediaUrlBody,
  phone: 'none',
  rpc: MigrateMediaUrlRpc,
  successStatus: 200,
  response: MigrateMediaUrlResponse,
  errorBodies: {
    403: { description: '`{ error }`: the file belongs to a different organization (spec 4.8)', schema: MediaErrorBodySchema },
    422: { description: '`{ error }`: not a legacy or media URL of this service, or not a service bucket', schema: MediaErrorBodySchema },
  },
});
