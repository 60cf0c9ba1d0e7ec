import { useTestDatabase } from '@mapi/testing';
import { CreateOrganization } from '../create-organization/create-organization.usecase';
import { CreatePhone } from '../create-phone/create-phone.usecase';
import { CreateToken } from '../create-token/create-token.usecase';
import { RevokeToken } from '../revoke-token/revoke-token.usecase';
import { ListOrganizations } from './list-organizations.usecase';

describe('ListOrganizations', () => {
  const t = useTestDatabase('admin_org_list');

  it('is empty on a new database', async () => {
    await expect(new ListOrganizations(t.prisma).execute()).resolves.toEqual([]);
  });

  it('lists organizations oldest first with their live phones and active tokens', async () => {
    const orgs = new CreateOrganization(t.prisma);
    const first = await orgs.execute({ name: 'First', rateLimitPerSecond: 10 });
    const second = await orgs.execute({ name: 'Second', plan: 'free' });
    const phones = new CreatePhone(t.prisma);
    await phones.execute({ orgId: first.id, digits: '14155550100' });
    const gone = await phones.execute({ orgId: first.id, digits: '14155550101' });
    await t.prisma.phone.update({ where: { phone_id: gone.phone_id }, data: { deleted_at: new Date() } });
    const tokens = new CreateToken(t.prisma);
    await tokens.execute({ orgId: first.id });
    const revoked = await tokens.execute({ orgId: first.id });
    await new RevokeToken(t.prisma).execute({ tokenId: revoked.id });

    const list = await new ListOrganizations(t.prisma).execute();
    expect(list.map((o) => o.id)).toEqual([first.id, second.id]);
    expect(list[0]).toMatchObject({
      name: 'First',
      plan: 'pro',
      plan_active: true,
      rate_limit_per_second: 10,
      phones: 1,
      active_tokens: 1,
    });
    expect(list[1]).toMatchObject({ name: 'Second', plan: 'free', rate_limit_per_second: null, phones: 0, active_tokens: 0 });
  });
});
