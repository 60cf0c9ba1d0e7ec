import { createPrismaClient, type PrismaClient } from '@mapi/db';
import { createTestDatabase, type TestDatabase } from '@mapi/testing';
import { AdminError } from '../../admin-error';
import { CreateOrganization } from './create-organization.usecase';

describe('CreateOrganization', () => {
  let db: TestDatabase;
  let prisma: PrismaClient;
  let useCase: CreateOrganization;

  beforeAll(async () => {
    db = await createTestDatabase('admin_org_create');
    prisma = createPrismaClient({ url: db.url, poolSize: 2 });
    useCase = new CreateOrganization(prisma);
  });
  afterAll(async () => {
    await prisma?.$disconnect();
    await db?.drop();
  });

  it('creates an active pro organization by default', async () => {
    const org = await useCase.execute({ name: '  Acme  ' });
    expect(org).toMatchObject({ name: 'Acme', plan: 'pro', plan_active: true, rate_limit_per_second: null });
    const row = await prisma.organization.findUniqueOrThrow({ where: { id: org.id } });
    expect(row).toMatchObject({ name: 'Acme', plan: 'pro', plan_active: true, rate_limit_per_second: null });
  });

  it('stores the plan and rate limit given', async () => {
    const org = await useCase.execute({ name: 'Big Co', plan: 'Enterprise', rateLimitPerSecond: 250 });
    const row = await prisma.organization.findUniqueOrThrow({ where: { id: org.id } });
    expect(row).toMatchObject({ plan: 'enterprise', plan_active: true, rate_limit_per_second: 250 });
    await expect(useCase.execute({ name: 'Small Co', plan: 'free' })).resolves.toMatchObject({ plan: 'free' });
  });

  it.each([
    [{ name: '   ' }, 'organization name must not be empty'],
    [{ name: 'X', plan: 'gold' }, 'plan "gold" is not one of free, pro, enterprise'],
    [{ name: 'X', rateLimitPerSecond: 0 }, 'rate limit must be a whole number'],
    [{ name: 'X', rateLimitPerSecond: 2.5 }, 'rate limit must be a whole number'],
  ])('refuses %j with a clear AdminError and stores nothing', async (command, message) => {
    const before = await prisma.organization.count();
    const error = await useCase.execute(command).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AdminError);
    expect((error as AdminError).message).toContain(message);
    expect(await prisma.organization.count()).toBe(before);
  });
});
