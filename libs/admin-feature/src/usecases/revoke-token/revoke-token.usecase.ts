import type { PrismaClient } from '@mapi/db';
import { AdminError } from '../../admin-error';
import { requireUuid } from '../../shared/validation';

export interface RevokeTokenCommand {
  tokenId: string;
}

export interface RevokedToken {
  id: string;
  org_id: string;
  name: string;
  prefix: string;
  revoked_at: Date;
  /** True when the token had been revoked before this call (nothing changed). */
  already_revoked: boolean;
}

/** Revokes a token by id. Idempotent: revoking again keeps the first revocation time. */
export class RevokeToken {
  constructor(private readonly prisma: PrismaClient) {}

  async execute(command: RevokeTokenCommand): Promise<RevokedToken> {
    const id = requireUuid(command.tokenId, 'token id');
    const select = { id: true, org_id: true, name: true, token_prefix: true, revoked_at: true } as const;
    // Only a token not yet revoked is updated, so concurrent revocations keep one timestamp.
    const { count } = await this.prisma.apiToken.updateMany({
      where: { id, revoked_at: null },
      data: { revoked_at: new Date() },
    });
    const row = await this.prisma.apiToken.findUnique({ where: { id }, select });
    if (!row || !row.revoked_at) throw new AdminError(`token ${id} not found`);
    return {
      id: row.id,
      org_id: row.org_id,
      name: row.name,
      prefix: row.token_prefix,
      revoked_at: row.revoked_at,
      already_revoked: count === 0,
    };
  }
}
