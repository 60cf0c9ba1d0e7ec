import type { PrismaClient } from '@mapi/db';
import { PAID_PLANS, type Principal } from '../auth/principal';

/** Tells the owner of api_tokens (the members service) that a token was used. */
export type RecordTokenUse = (tokenId: string, usedAt: Date) => Promise<void>;

/**
 * Token lookups. The only query of the gateway not scoped by organization: a token hash is what
 * tells the organization in the first place. api_tokens is the members service's; the gateway only
 * reads it (a declared reader, prisma/schema/api-tokens.prisma) and reports uses through `recordUse`.
 */
export class TokenRepository {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly recordUse: RecordTokenUse,
  ) {}

  /** The principal of a usable token: known, not revoked, of an organization with an active paid plan. */
  async findUsableByHash(tokenHash: string): Promise<Principal | null> {
    const row = await this.prisma.apiToken.findUnique({
      where: { token_hash: tokenHash },
      select: {
        id: true,
        org_id: true,
        phone_scoped: true,
        phone_ids: true,
        revoked_at: true,
        organization: { select: { plan: true, plan_active: true, rate_limit_per_second: true } },
      },
    });
    if (!row || row.revoked_at || !row.organization.plan_active || !PAID_PLANS.has(row.organization.plan)) return null;
    return {
      token_id: row.id,
      org_id: row.org_id,
      phone_scope: row.phone_scoped ? row.phone_ids : null,
      rate_limit_per_second: row.organization.rate_limit_per_second,
    };
  }

  /** The organization of a console session, when its plan is paid and active (the same rule as a token's). */
  async usableOrganization(orgId: string): Promise<{ rate_limit_per_second: number | null } | null> {
    const org = await this.prisma.organization.findUnique({
      where: { id: orgId },
      select: { plan: true, plan_active: true, rate_limit_per_second: true },
    });
    if (!org || !org.plan_active || !PAID_PLANS.has(org.plan)) return null;
    return { rate_limit_per_second: org.rate_limit_per_second };
  }

  touch(tokenId: string): Promise<void> {
    return this.recordUse(tokenId, new Date());
  }
}
