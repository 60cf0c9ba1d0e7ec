import { useTestDatabase } from '@mapi/testing';
import { AdminError } from '../../admin-error';
import { CreateOrganization } from '../create-organization/create-organization.usecase';
import { CreatePhone } from '../create-phone/create-phone.usecase';
import { CreateToken } from '../create-token/create-token.usecase';
import { RevokeToken } from '../revoke-token/revoke-token.usecase';
import { ListTokens } from './list-tokens.usecase';

describe('ListTokens', () => {
  const t = useTestDatabase('admin_token_list');
  let useCase: ListTokens;

  beforeAll(async () => {
    useCase = new ListTokens(t.prisma);
  });

  it("lists an organization's tokens with prefix, scope, revocation and last use, never a token or hash", async () => {
    const orgs = new CreateOrganization(t.prisma);
    const orgId = (await orgs.execute({ name: 'Listed' })).id;
    const otherOrg = (await orgs.execute({ name: 'Not listed' })).id;
    const phone = (await new CreatePhone(t.prisma).execute({ orgId, digits: '14155550100' })).phone_id;
    const tokens = new CreateToken(t.prisma);
    const all = await tokens.execute({ orgId, name: 'all phones' });
    const scoped = await tokens.execute({ orgId, name: 'one phone', phoneIds: [phone] });
    const revoked = await tokens.execute({ orgId, name: 'revoked' });
    await tokens.execute({ orgId: otherOrg, name: 'elsewhere' });
    const { revoked_at } = await new RevokeToken(t.prisma).execute({ tokenId: revoked.id });
    const usedAt = new Date('2026-11-20T10:00:00.000Z');
    await t.prisma.apiToken.update({ where: { id: all.id }, data: { last_used_at: usedAt } });

    const list = await useCase.execute({ orgId });
    expect(list.map((t) => t.name)).toEqual(['all phones', 'one phone', 'revoked']);
    expect(list[0]).toMatchObject({
      id: all.id,
      prefix: all.prefix,
      phone_scope: null,
      revoked: false,
      revoked_at: null,
      last_used_at: usedAt,
    });
    expect(list[1]).toMatchObject({ id: scoped.id, phone_scope: [phone], revoked: false, last_used_at: null });
    expect(list[2]).toMatchObject({ id: revoked.id, revoked: true, revoked_at });

    const shown = JSON.stringify(list);
    const hashes = (await t.prisma.apiToken.findMany({ select: { token_hash: true } })).map((r) => r.token_hash);
    for (const secret of [all.token, scoped.token, revoked.token, ...hashes]) expect(shown).not.toContain(secret);
    for (const item of list) for (const key of ['token', 'token_hash', 'hash']) expect(item).not.toHaveProperty(key);
  });

  it('is empty for an organization without tokens', async () => {
    const orgId = (await new CreateOrganization(t.prisma).execute({ name: 'Quiet' })).id;
    await expect(useCase.execute({ orgId })).resolves.toEqual([]);
  });

  it('refuses an unknown organization', async () => {
    await expect(useCase.execute({ orgId: '00000000-0000-4000-8000-000000000000' })).rejects.toEqual(
      new AdminError('organization 00000000-0000-4000-8000-000000000000 not found'),
    );
    await expect(useCase.execute({ orgId: '' })).rejects.toEqual(new AdminError('organization id is required'));
  });
});
