import type { PrismaClient } from '@mapi/db';
import type { OrganizationPlanRow, TokenRow } from '../rows/token-row';

/** Tells the owner of api_tokens (the members service) that a token was used. */
export type RecordTokenUse = (tokenId: string, usedAt: Date) => Promise<void>;

const PLAN = { plan: true, plan_active: true, rate_limit_per_second: true } as const;

/**
 * Token lookups. The only query of the gateway not scoped by organization: a token hash is what
 * tells the organization in the first place. api_tokens is the members service's; the gateway only
 * reads it (a declared reader, prisma/schema/api-tokens.prisma) and reports uses through `recordUse`.
 * Rows only: whether a token may be used is auth/token-principals.ts's rule.
 */
export class TokenRepository {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly recordUse: RecordTokenUse,
  ) {}

  /** The token of this hash with its organization's plan, revoked or not. */
  tokenByHash(tokenHash: string): Promise<TokenRow | null> {
    return this.prisma.apiToken.findUnique({
      where: { token_hash: tokenHash },
      select: { id: true, org_id: true, phone_scoped: true, phone_ids: true, revoked_at: true, organization: { select: PLAN } },
    });
  }

  /** An organization's plan columns. */
  organizationPlan(orgId: string): Promise<OrganizationPlanRow | null> {
    return this.prisma.organization.findUnique({ where: { id: orgId }, select: PLAN });
  }

  touch(tokenId: string): Promise<void> {
    return this.recordUse(tokenId, new Date());
  }
}
