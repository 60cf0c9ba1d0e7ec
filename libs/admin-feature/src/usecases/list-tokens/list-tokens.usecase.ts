import type { PrismaClient } from '@mapi/db';
import { requireOrganization } from '../../shared/validation';

export interface ListTokensCommand {
  orgId: string;
}

/** A token as listings show it: never the token, never its hash. */
export interface TokenListItem {
  id: string;
  name: string;
  prefix: string;
  /** null: every phone of the organization. */
  phone_scope: string[] | null;
  revoked: boolean;
  revoked_at: Date | null;
  last_used_at: Date | null;
  created_at: Date;
}

/** The tokens of an organization, oldest first. */
export class ListTokens {
  constructor(private readonly prisma: PrismaClient) {}

  async execute(command: ListTokensCommand): Promise<TokenListItem[]> {
    const org = await requireOrganization(this.prisma, command.orgId);
    const rows = await this.prisma.apiToken.findMany({
      where: { org_id: org.id },
      orderBy: [{ created_at: 'asc' }, { id: 'asc' }],
      // An explicit select: token_hash is never read.
      select: {
        id: true,
        name: true,
        token_prefix: true,
        phone_scoped: true,
        phone_ids: true,
        revoked_at: true,
        last_used_at: true,
        created_at: true,
      },
    });
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      prefix: row.token_prefix,
      phone_scope: row.phone_scoped ? row.phone_ids : null,
      revoked: row.revoked_at !== null,
      revoked_at: row.revoked_at,
      last_used_at: row.last_used_at,
      created_at: row.created_at,
    }));
  }
}
