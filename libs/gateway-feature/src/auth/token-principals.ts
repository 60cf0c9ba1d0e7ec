import type { TokenRepository } from '../repositories/token-repository';
import type { OrganizationPlanRow } from '../rows/token-row';
import { PAID_PLANS, type Principal } from './principal';

/** The plan rule: an organization's tokens and sessions are usable while its plan is paid and active. */
const usable = (org: OrganizationPlanRow | null): org is OrganizationPlanRow => !!org && org.plan_active && PAID_PLANS.has(org.plan);

/** Who a token or a console session is, from the stored rows and the plan rule. */
export class TokenPrincipals {
  constructor(private readonly tokens: TokenRepository) {}

  /** The principal of a usable token: known, not revoked, of an organization with an active paid plan. */
  async findUsableByHash(tokenHash: string): Promise<Principal | null> {
    const row = await this.tokens.tokenByHash(tokenHash);
    if (!row || row.revoked_at || !usable(row.organization)) return null;
    return {
      token_id: row.id,
      org_id: row.org_id,
      phone_scope: row.phone_scoped ? row.phone_ids : null,
      rate_limit_per_second: row.organization.rate_limit_per_second,
    };
  }

  /** The organization of a console session, when its plan is paid and active (the same rule as a token's). */
  async usableOrganization(orgId: string): Promise<{ rate_limit_per_second: number | null } | null> {
    const org = await this.tokens.organizationPlan(orgId);
    return usable(org) ? { rate_limit_per_second: org.rate_limit_per_second } : null;
  }

  touch(tokenId: string): Promise<void> {
    return this.tokens.touch(tokenId);
  }
}
