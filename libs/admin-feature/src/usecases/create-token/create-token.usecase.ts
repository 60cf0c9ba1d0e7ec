import type { PrismaClient } from '@mapi/db';
import { generateApiToken } from '@mapi/platform';
import { AdminError } from '../../admin-error';
import { requireName, requireOrganization } from '../../shared/validation';

export interface CreateTokenCommand {
  orgId: string;
  /** Shown in listings; default "api token". */
  name?: string;
  /** phone_ids the token is limited to; omitted: every phone of the organization. */
  phoneIds?: string[];
}

export interface CreatedToken {
  id: string;
  org_id: string;
  name: string;
  /** The token itself: returned once, here, and never stored. */
  token: string;
  prefix: string;
  phone_scoped: boolean;
  phone_ids: string[];
  created_at: Date;
}

/** Creates an API token; only its SHA-256 hash and a short display prefix are stored. */
export class CreateToken {
  constructor(private readonly prisma: PrismaClient) {}

  async execute(command: CreateTokenCommand): Promise<CreatedToken> {
    const name = command.name === undefined ? 'api token' : requireName(command.name, 'token name');
    const org = await requireOrganization(this.prisma, command.orgId);
    const phoneIds = command.phoneIds === undefined ? undefined : await this.checkScope(org.id, command.phoneIds);
    const generated = generateApiToken();
    const row = await this.prisma.apiToken.create({
      data: {
        org_id: org.id,
        name,
        token_prefix: generated.display_prefix,
        token_hash: generated.hash,
        phone_scoped: phoneIds !== undefined,
        phone_ids: phoneIds ?? [],
      },
    });
    return {
      id: row.id,
      org_id: row.org_id,
      name: row.name,
      token: generated.token,
      prefix: row.token_prefix,
      phone_scoped: row.phone_scoped,
      phone_ids: row.phone_ids,
      created_at: row.created_at,
    };
  }

  /** The distinct phone_ids, each a phone (not deleted) of the organization. */
  private async checkScope(orgId: string, requested: string[]): Promise<string[]> {
    const phoneIds = [...new Set(requested.map((id) => id.trim()).filter(Boolean))];
    if (phoneIds.length === 0) {
      throw new AdminError('a phone scope must name at least one phone_id (omit it for a token that reaches every phone)');
    }
    const found = await this.prisma.phone.findMany({
      where: { org_id: orgId, phone_id: { in: phoneIds }, deleted_at: null },
      select: { phone_id: true },
    });
    const known = new Set(found.map((p) => p.phone_id));
    const unknown = phoneIds.filter((id) => !known.has(id));
    if (unknown.length > 0) {
      throw new AdminError(
        `phone scope: ${unknown.join(', ')} ${unknown.length === 1 ? 'is not a phone' : 'are not phones'} of organization ${orgId}`,
      );
    }
    return phoneIds;
  }
}
