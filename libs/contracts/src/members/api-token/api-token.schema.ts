import { z } from 'zod';

/** An API token as listed: never the token itself, never its hash. */
export const ApiTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The token's first characters, to recognise it; never enough to use it. */
  prefix: z.string(),
  /** phone_ids the token is limited to; null = every phone of the organization. */
  phone_scope: z.array(z.string()).nullable(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  /** Set once revoked: the token is refused (401) from then on. */
  revoked_at: z.string().nullable(),
});
export type ApiToken = z.infer<typeof ApiTokenSchema>;

/** A token just created: the listing's fields and the token itself, shown only in this answer. */
export const CreatedApiTokenSchema = ApiTokenSchema.extend({ token: z.string() });
export type CreatedApiToken = z.infer<typeof CreatedApiTokenSchema>;

export const ApiTokenIdParams = z.object({
  id: z.uuid({ error: 'id must be a token id (a UUID)' }),
});
