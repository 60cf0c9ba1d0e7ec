import type { PrismaClient } from '@mapi/db';
import { CreateOrganization } from './usecases/create-organization/create-organization.usecase';
import { ListOrganizations } from './usecases/list-organizations/list-organizations.usecase';
import { CreateToken } from './usecases/create-token/create-token.usecase';
import { RevokeToken } from './usecases/revoke-token/revoke-token.usecase';
import { ListTokens } from './usecases/list-tokens/list-tokens.usecase';
import { CreatePhone } from './usecases/create-phone/create-phone.usecase';
import { SeedDemo } from './usecases/seed-demo/seed-demo.usecase';
import { SeedSelfLearned } from './usecases/seed-self-learned/seed-self-learned.usecase';
import { CreateOwner } from './usecases/create-owner/create-owner.usecase';

export * from './admin-error';

/** Every admin use case on one Prisma client (the dashboard stand-in of spec part 5). */
export function createAdminUseCases(prisma: PrismaClient) {
  return {
    createOrganization: new CreateOrganization(prisma),
    listOrganizations: new ListOrganizations(prisma),
    createToken: new CreateToken(prisma),
    revokeToken: new RevokeToken(prisma),
    listTokens: new ListTokens(prisma),
    createPhone: new CreatePhone(prisma),
    seedDemo: new SeedDemo(prisma),
    seedSelfLearned: new SeedSelfLearned(prisma),
    createOwner: new CreateOwner(prisma),
  };
}

export type AdminUseCases = ReturnType<typeof createAdminUseCases>;
