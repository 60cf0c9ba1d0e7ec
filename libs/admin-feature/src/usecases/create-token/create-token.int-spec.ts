import { createHash } from 'node:crypto';
import { useTestDatabase } from '@mapi/testing';
import { AdminError } from '../../admin-error';
import { CreateOrganization } from '../create-organization/create-organization.usecase';
import { CreatePhone } from '../create-phone/create-phone.usecase';
import { CreateToken } from './create-token.usecase';

describe('CreateToken', () => {
  const t = useTestDatabase('admin_token_create');
  let useCase: CreateToken;
  let orgId: string;
  let phoneA: string;
  let phoneB: string;
  let foreignPhone: string;

  beforeAll(async () => {
    useCase = new CreateToken(t.prisma);
    const orgs = new CreateOrganization(t.prisma);
    const phones = new CreatePhone(t.prisma);
    orgId = (await orgs.execute({ name: 'Tokens Inc' })).id;
    const otherOrg = (await orgs.execute({ name: 'Someone Else' })).id;
    phoneA = (await phones.execute({ orgId, digits: '14155550100' })).phone_id;
    phoneB = (await phones.execute({ orgId, digits: '14155550101' })).phone_id;
    foreignPhone = (await phones.execute({ orgId: otherOrg, digits: '14155550102' })).phone_id;
  });

  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (e: unknown) => e,
    );

  it('returns the token once and stores only its SHA-256 hash and a short prefix', async () => {
    const created = await useCase.execute({ orgId, name: 'ci' });
    expect(created.token).toMatch(/^mapi_[A-Za-z0-9_-]{40,}$/);
    expect(created).toMatchObject({ org_id: orgId, name: 'ci', phone_scoped: false, phone_ids: [] });
    expect(created.token.startsWith(created.prefix)).toBe(true);
    expect(created.prefix.length).toBeLessThan(16);

    const row = await t.prisma.apiToken.findUniqueOrThrow({ where: { id: created.id } });
    expect(row.token_hash).toBe(createHash('sha256').update(created.token).digest('hex'));
    expect(row.token_prefix).toBe(created.prefix);
    expect(row.revoked_at).toBeNull();
    // Nowhere in the row is the token itself.
    expect(JSON.stringify(row)).not.toContain(created.token);
  });

  it('makes a different token each time, named "api token" by default', async () => {
    const a = await useCase.execute({ orgId });
    const b = await useCase.execute({ orgId });
    expect(a.token).not.toBe(b.token);
    expect(a.name).toBe('api token');
  });

  it('scopes a token to phones of the organization (duplicates and blanks dropped)', async () => {
    const created = await useCase.execute({ orgId, phoneIds: [phoneA, ` ${phoneB} `, phoneA, ''] });
    expect(created).toMatchObject({ phone_scoped: true, phone_ids: [phoneA, phoneB] });
    const row = await t.prisma.apiToken.findUniqueOrThrow({ where: { id: created.id } });
    expect(row).toMatchObject({ phone_scoped: true, phone_ids: [phoneA, phoneB] });
  });

  describe('refuses, storing nothing,', () => {
    let before: number;
    beforeEach(async () => {
      before = await t.prisma.apiToken.count();
    });
    afterEach(async () => {
      expect(await t.prisma.apiToken.count()).toBe(before);
    });

    it('an unknown organization', async () => {
      const error = await failure(useCase.execute({ orgId: '00000000-0000-4000-8000-000000000000' }));
      expect(error).toEqual(new AdminError('organization 00000000-0000-4000-8000-000000000000 not found'));
    });

    it('a malformed organization id', async () => {
      const error = await failure(useCase.execute({ orgId: 'not-a-uuid' }));
      expect(error).toBeInstanceOf(AdminError);
      expect((error as Error).message).toContain('is not a valid id');
    });

    it('a phone of another organization in the scope', async () => {
      const error = await failure(useCase.execute({ orgId, phoneIds: [phoneA, foreignPhone] }));
      expect(error).toEqual(new AdminError(`phone scope: ${foreignPhone} is not a phone of organization ${orgId}`));
    });

    it('unknown and deleted phones in the scope', async () => {
      await t.prisma.phone.update({ where: { phone_id: phoneB }, data: { deleted_at: new Date() } });
      try {
        const error = await failure(useCase.execute({ orgId, phoneIds: [phoneB, 'phone-doesnotexist00'] }));
        expect(error).toEqual(new AdminError(`phone scope: ${phoneB}, phone-doesnotexist00 are not phones of organization ${orgId}`));
      } finally {
        await t.prisma.phone.update({ where: { phone_id: phoneB }, data: { deleted_at: null } });
      }
    });

    it('an empty scope', async () => {
      const error = await failure(useCase.execute({ orgId, phoneIds: [' ', ''] }));
      expect(error).toBeInstanceOf(AdminError);
      expect((error as Error).message).toContain('must name at least one phone_id');
    });

    it('an empty name', async () => {
      const error = await failure(useCase.execute({ orgId, name: ' ' }));
      expect(error).toEqual(new AdminError('token name must not be empty'));
    });
  });
});
