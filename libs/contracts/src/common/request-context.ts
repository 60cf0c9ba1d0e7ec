import { z } from 'zod';

/**
 * What the gateway has established about a request before a service sees it: the organization of
 * the token, the phones the token may reach, and the phone named by `x-phone` (when given).
 * Services scope every query by `org_id` and, where phones matter, by these phones.
 */
export const RequestContextSchema = z.object({
  org_id: z.uuid(),
  token_id: z.uuid(),
  /** phone_ids the token is scoped to; null when it reaches every phone of the organization. */
  phone_scope: z.array(z.string()).nullable(),
  /** The phone resolved from `x-phone`, or null when the header was absent. */
  phone: z.object({ phone_id: z.string(), org_phone: z.string().nullable() }).nullable(),
});
export type RequestContext = z.infer<typeof RequestContextSchema>;
