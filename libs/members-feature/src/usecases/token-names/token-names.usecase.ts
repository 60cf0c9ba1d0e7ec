import type { TokenNamesRequest } from '@mapi/contracts';
import type { PrismaClient } from '@mapi/db';

/**
 * members.v1.tokens.names (internal, asked by analytics for its team rows): the names of the
 * organization's tokens among the ids (revoked ones too); another organization's ids answer nothing.
 */
export class TokenNames {
  constructor(private readonly prisma: PrismaClient) {}

  async execute({ ctx, body }: TokenNamesRequest): Promise<{ tokens: { id: string; name: string }[] }> {
    const tokens = await this.prisma.apiToken.findMany({
      where: { org_id: ctx.org_id, id: { in: body.ids } },
      select: { id: true, name: true },
      orderBy: { id: 'asc' },
    });
    return { tokens };
  }
}
