/** Who is calling: established from the bearer token by `Authenticator`. */
export interface Principal {
  token_id: string;
  org_id: string;
  /** null: the token reaches every phone of the organization. */
  phone_scope: string[] | null;
  /** Requests per second for this organization, or null for the configured default. */
  rate_limit_per_second: number | null;
}

export const PAID_PLANS = new Set(['pro', 'enterprise']);
