import type { MemberPrincipal } from '@mapi/contracts';

/** Who is calling: established from the bearer token, or from a console session cookie, by `Authenticator`. */
export interface Principal {
  /** The token's id; for a console session, the member's id (the bucket of its rate limit). */
  token_id: string;
  org_id: string;
  /** null: the token (or member) reaches every phone of the organization. */
  phone_scope: string[] | null;
  /** Requests per second for this organization, or null for the configured default. */
  rate_limit_per_second: number | null;
  /** The signed-in member of a console session; absent for a bearer token. */
  member?: MemberPrincipal;
}

export const PAID_PLANS = new Set(['pro', 'enterprise']);
