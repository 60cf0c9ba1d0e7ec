import type { CreateApiTokenRequest, CreatedApiToken, PhoneDirectory } from '@mapi/contracts';
import { generateApiToken } from '@mapi/platform';
import { actorOf, requireTokenManager, resolveAccess } from '../../access';
import { toApiToken } from '../../map-api-token';
import type { AuditRepository } from '../../repositories/audit-repository';
import type { MemberRepository } from '../../repositories/member-repository';
import type { TokenRepository } from '../../repositories/token-repository';

/**
 * POST /api-tokens/create: a new token, shown once (only its SHA-256 hash and a short prefix are
 * stored), limited to the given phones of the organization (read from the phones service) or to none;
 * `token.created` in the audit trail, in the same transaction.
 */
export class CreateApiToken {
  constructor(
    private readonly tokens: TokenRepository,
    private readonly members: MemberRepository,
    private readonly audit: AuditRepository,
    private readonly directory: PhoneDirectory,
  ) {}

  async execute({ ctx, body }: CreateApiTokenRequest): Promise<CreatedApiToken> {
    requireTokenManager(ctx);
    const access = await resolveAccess(this.directory, ctx.org_id, { orgPhones: body.orgPhones ?? null });
    const phoneIds = access.phones_limited ? access.phone_ids : null;
    const generated = generateApiToken();
    const row = await this.members.transaction(async (tx) => {
      const created = await this.tokens.create(tx, ctx.org_id, {
        name: body.name,
        token_prefix: generated.display_prefix,
        token_hash: generated.hash,
        phone_ids: phoneIds,
      });
      await this.audit.record(tx, ctx.org_id, {
        ...actorOf(ctx),
        action: 'token.created',
        target: created.id,
        details: { name: created.name, prefix: created.token_prefix, phone_scope: phoneIds },
      });
      return created;
    });
    return { ...toApiToken(row), token: generated.token };
  }
}
