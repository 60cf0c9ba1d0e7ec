import { Errors, type RevokeApiTokenRequest } from '@mapi/contracts';
import { actorOf, requireTokenManager } from '../../access';
import type { AuditRepository } from '../../repositories/audit-repository';
import type { MemberRepository } from '../../repositories/member-repository';
import type { TokenRepository } from '../../repositories/token-repository';

/**
 * DELETE /api-tokens/{id}: the token is revoked (the gateway refuses it from then on; the row stays,
 * listed with revoked_at) and `token.revoked` is recorded, in one transaction with the row locked,
 * so two concurrent revocations record one entry. Already revoked: nothing changes. Another
 * organization's id reads as unknown (404).
 */
export class RevokeApiToken {
  constructor(
    private readonly tokens: TokenRepository,
    private readonly members: MemberRepository,
    private readonly audit: AuditRepository,
  ) {}

  async execute({ ctx, params }: RevokeApiTokenRequest): Promise<null> {
    requireTokenManager(ctx);
    await this.members.transaction(async (tx) => {
      const token = await this.tokens.lock(tx, ctx.org_id, params.id);
      if (!token) throw Errors.notFound('API token not found');
      if (token.revoked_at) return;
      await this.tokens.revoke(tx, ctx.org_id, token.id, new Date());
      await this.audit.record(tx, ctx.org_id, {
        ...actorOf(ctx),
        action: 'token.revoked',
        target: token.id,
        details: { name: token.name, prefix: token.token_prefix },
      });
    });
    return null;
  }
}
