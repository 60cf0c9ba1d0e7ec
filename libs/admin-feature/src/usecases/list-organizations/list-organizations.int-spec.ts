import { createPrismaClient, type PrismaClient } from '@mapi/db';
import { createTestDatabase, type TestDatabase } from '@mapi/testing';
import { CreateOrganization } from '../create-organization/create-organization.usecase';
import { CreatePhone } from '../create-phone/create-phone.usecase';
import { CreateToken } from '../create-token/create-token.usecase';
import { RevokeToken } from '../revoke-token/revoke-token.usecase';
import { ListOrganizations } from './list-organizations.usecase';

describe('ListOrganizations', () => {
  let db: TestDatabase;
  let prisma: PrismaClient;

  beforeAll(async () => {
    db = await createTestDatabase('admin_org_list');
    prisma = createPrismaClient({ url: db.url, poolSize: 2 });
  });
  afterAll(async () => {
    await prisma?.$disconnect();
    await db?.drop();
  });

  it('is empty on a new database', async () => {
    await expect(new ListOrganizations(prisma).execute()).resolves.toEqual([]);
  });

  it('lists organizations oldest first with their live phones and active tokens', async () => {
    const orgs = new CreateOrganization(prisma);
    const first = await orgs.execute({ name: 'First', rateLimitPerSecond: 10 });
    const second = await orgs.execute({ name: 'Second', plan: 'free' });
    const phones = new CreatePhone(prisma);
    await phones.execute({ orgId: first.id, digits: '14155550100' });
    const gone = await phones.execute({ orgId: first.id, digits: '14155550101' });
    await prisma.phone.update({ where: { phone_id: gone.phone_id }, data: { deleted_at: new Date() } });
    const tokens = new CreateToken(prisma);
    await tokens.execute({ orgId: first.id });
    const revoked = await tokens.execute({ orgId: first.id });
    await new RevokeToken(prisma).execute({ tokenId: revoked.id });

    const list = await new ListOrganizations(prisma).execute();
    expect(list.map((o) => o.id)).toEqual([first.id, second.id]);
    expect(list[0]).toMatchObject({ name: 'First', plan: 'pro', plan_active: true, rate_limit_per_second: 10, phones: 1, active_tokens: 1 });
    expect(list[1]).toMatchObject({ name: 'Second', plan: 'free', rate_limit_per_second: null, phones: 0, active_tokens: 0 });
  });
});
