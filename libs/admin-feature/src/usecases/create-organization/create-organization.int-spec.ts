import { useTestDatabase } from '@mapi/testing';
import { AdminError } from '../../admin-error';
import { CreateOrganization } from './create-organization.usecase';

describe('CreateOrganization', () => {
  const t = useTestDatabase('admin_org_create');
  let useCase: CreateOrganization;

  beforeAll(async () => {
    useCase = new CreateOrganization(t.prisma);
  });

  it('creates an active pro organization by default', async () => {
    const org = await useCase.execute({ name: '  Acme  ' });
    expect(org).toMatchObject({ name: 'Acme', plan: 'pro', plan_active: true, rate_limit_per_second: null });
    const row = await t.prisma.organization.findUniqueOrThrow({ where: { id: org.id } });
    expect(row).toMatchObject({ name: 'Acme', plan: 'pro', plan_active: true, rate_limit_per_second: null });
  });

  it('stores the plan and rate limit given', async () => {
    const org = await useCase.execute({ name: 'Big Co', plan: 'Enterprise', rateLimitPerSecond: 250 });
    const row = await t.prisma.organization.findUniqueOrThrow({ where: { id: org.id } });
    expect(row).toMatchObject({ plan: 'enterprise', plan_active: true, rate_limit_per_second: 250 });
    await expect(useCase.execute({ name: 'Small Co', plan: 'free' })).resolves.toMatchObject({ plan: 'free' });
  });

  it.each([
    [{ name: '   ' }, 'organization name must not be empty'],
    [{ name: 'X', plan: 'gold' }, 'plan "gold" is not one of free, pro, enterprise'],
    [{ name: 'X', rateLimitPerSecond: 0 }, 'rate limit must be a whole number'],
    [{ name: 'X', rateLimitPerSecond: 2.5 }, 'rate limit must be a whole number'],
  ])('refuses %j with a clear AdminError and stores nothing', async (command, message) => {
    const before = await t.prisma.organization.count();
    const error = await useCase.execute(command).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AdminError);
    expect((error as AdminError).message).toContain(message);
    expect(await t.prisma.organization.count()).toBe(before);
  });
});
