import type { PrismaClient } from '@mapi/db';
import type { OrganizationView } from '../create-organization/create-organization.usecase';

export interface OrganizationListItem extends OrganizationView {
  /** Phones not deleted. */
  phones: number;
  /** Tokens not revoked. */
  active_tokens: number;
}

/** Every organization, oldest first, with its phone and active token counts. */
export class ListOrganizations {
  constructor(private readonly prisma: PrismaClient) {}

  async execute(): Promise<OrganizationListItem[]> {
    const orgs = await this.prisma.organization.findMany({
      orderBy: [{ created_at: 'asc' }, { id: 'asc' }],
      select: {
        id: true,
        name: true,
        plan: true,
        plan_active: true,
        rate_limit_per_second: true,
        created_at: true,
        _count: {
          select: { phones: { where: { deleted_at: null } }, tokens: { where: { revoked_at: null } } },
        },
      },
    });
    return orgs.map(({ _count, ...org }) => ({ ...org, phones: _count.phones, active_tokens: _count.tokens }));
  }
}
