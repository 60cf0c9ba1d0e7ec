/** An organization's plan columns (`organizations`): what decides whether its tokens and sessions may be used. */
export interface OrganizationPlanRow {
  plan: string;
  plan_active: boolean;
  rate_limit_per_second: number | null;
}

/** A stored API token (`api_tokens`, the members service's; the gateway reads it) with its organization's plan. */
export interface TokenRow {
  id: string;
  org_id: string;
  phone_scoped: boolean;
  phone_ids: string[];
  revoked_at: Date | null;
  organization: OrganizationPlanRow;
}
