import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { CreatedApiTokenSchema } from '../api-token/api-token.schema';
import { OrgPhonesSchema } from '../member/member.schema';

/** A lone UTF-16 surrogate cannot be stored (Postgres text is UTF-8): replaced, as group names are. */
const wellFormed = (v: string) => v.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');

export const CreateApiTokenBody = z.object({
  name: z
    .string({ error: 'name must be a string' })
    .trim()
    .min(1, 'name must not be empty')
    .max(100, 'name is at most 100 characters')
    .transform(wellFormed),
  /** Numbers without @c.us, or phone_ids, of the organization's phones; null or absent: every phone. */
  orgPhones: OrgPhonesSchema.min(1, 'orgPhones must name at least one phone (null: every phone)').nullable().optional(),
});
export type CreateApiTokenBody = z.infer<typeof CreateApiTokenBody>;

export const CreateApiTokenRpc = defineRpc({
  subject: 'members.v1.tokens.create',
  service: 'members',
  request: z.object({ ctx: RequestContextSchema, body: CreateApiTokenBody }),
  response: CreatedApiTokenSchema,
});
export type CreateApiTokenRequest = z.infer<typeof CreateApiTokenRpc.request>;

export const CreateApiTokenRoute = defineRoute({
  operationId: 'createApiToken',
  method: 'POST',
  path: '/api-tokens/create',
  tag: 'members',
  summary: 'Create an API token',
  description:
    'Answers 201 with the token in `token`, shown only in this answer (only its SHA-256 hash is kept). `orgPhones` limits it to ' +
    'those phones of the organization (a phone it does not have is 422); absent or null: every phone. Recorded in the audit trail ' +
    '(token.created). Owners and admins, and tokens that reach every phone (403 for a member or a phone-scoped token).',
  body: CreateApiTokenBody,
  phone: 'none',
  role: 'admin',
  rpc: CreateApiTokenRpc,
  successStatus: 201,
  response: CreatedApiTokenSchema,
});
