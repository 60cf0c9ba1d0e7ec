import type { PrismaClient } from '@mapi/db';
import type { Db } from './member-repository';

/** A stored API token without its hash (never read back). */
export interface TokenRecord {
  id: string;
  org_id: string;
  name: string;
  token_prefix: string;
  phone_scoped: boolean;
  phone_ids: string[];
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

const COLUMNS = {
  id: true,
  org_id: true,
  name: true,
  token_prefix: true,
  phone_scoped: true,
  phone_ids: true,
  created_at: true,
  last_used_at: true,
  revoked_at: true,
} as const;

/** API tokens (api_tokens, owned here; the gateway reads them to authenticate). Organization first. */
export class TokenRepository {
  constructor(private readonly prisma: PrismaClient) {}

  list(orgId: string): Promise<TokenRecord[]> {
    return this.prisma.apiToken.findMany({ where: { org_id: orgId }, orderBy: [{ created_at: 'desc' }, { id: 'desc' }], select: COLUMNS });
  }

  create(
    tx: Db,
    orgId: string,
    data: { name: string; token_prefix: string; token_hash: string; phone_ids: string[] | null },
  ): Promise<TokenRecord> {
    return tx.apiToken.create({
      data: {
        org_id: orgId,
        name: data.name,
        token_prefix: data.token_prefix,
        token_hash: data.token_hash,
        phone_scoped: data.phone_ids !== null,
        phone_ids: data.phone_ids ?? [],
      },
      select: COLUMNS,
    });
  }

  /** The token, locked for the revocation's transaction; null when the organization has no such token. */
  async lock(tx: Db, orgId: string, id: string): Promise<TokenRecord | null> {
    const rows = await tx.$queryRaw<
      { id: string }[]
    >`SELECT id FROM api_tokens WHERE id = ${id}::uuid AND org_id = ${orgId}::uuid FOR UPDATE`;
    return rows.length ? tx.apiToken.findFirst({ where: { id, org_id: orgId }, select: COLUMNS }) : null;
  }

  async revoke(tx: Db, orgId: string, id: string, at: Date): Promise<void> {
    await tx.apiToken.updateMany({ where: { id, org_id: orgId, revoked_at: null }, data: { revoked_at: at } });
  }

  /** Records a use (never moves last_used_at back: a late message from another replica is dropped). */
  async touch(id: string, at: Date): Promise<void> {
    await this.prisma.apiToken.updateMany({
      where: { id, OR: [{ last_used_at: null }, { last_used_at: { lt: at } }] },
      data: { last_used_at: at },
    });
  }
}
