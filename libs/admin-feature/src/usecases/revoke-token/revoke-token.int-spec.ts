import { useTestDatabase } from '@mapi/testing';
import { AdminError } from '../../admin-error';
import { CreateOrganization } from '../create-organization/create-organization.usecase';
import { CreateToken } from '../create-token/create-token.usecase';
import { RevokeToken } from './revoke-token.usecase';

describe('RevokeToken', () => {
  const t = useTestDatabase('admin_token_revoke');
  let useCase: RevokeToken;
  let createToken: CreateToken;
  let orgId: string;

  beforeAll(async () => {
    useCase = new RevokeToken(t.prisma);
    createToken = new CreateToken(t.prisma);
    orgId = (await new CreateOrganization(t.prisma).execute({ name: 'Revokers' })).id;
  });

  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (e: unknown) => e,
    );

  it('sets revoked_at and says it was not revoked before', async () => {
    const token = await createToken.execute({ orgId, name: 'old' });
    const other = await createToken.execute({ orgId, name: 'kept' });
    const result = await useCase.execute({ tokenId: token.id });
    expect(result).toMatchObject({ id: token.id, org_id: orgId, name: 'old', prefix: token.prefix, already_revoked: false });
    const row = await t.prisma.apiToken.findUniqueOrThrow({ where: { id: token.id } });
    expect(row.revoked_at).toEqual(result.revoked_at);
    expect((await t.prisma.apiToken.findUniqueOrThrow({ where: { id: other.id } })).revoked_at).toBeNull();
  });

  it('is idempotent: a second revocation changes nothing and says so', async () => {
    const token = await createToken.execute({ orgId });
    const first = await useCase.execute({ tokenId: token.id });
    const second = await useCase.execute({ tokenId: token.id.toUpperCase() });
    expect(second).toMatchObject({ id: token.id, already_revoked: true });
    expect(second.revoked_at).toEqual(first.revoked_at);
  });

  it('refuses an unknown token id', async () => {
    const error = await failure(useCase.execute({ tokenId: '00000000-0000-4000-8000-000000000000' }));
    expect(error).toEqual(new AdminError('token 00000000-0000-4000-8000-000000000000 not found'));
  });

  it('refuses a malformed or missing token id', async () => {
    expect(await failure(useCase.execute({ tokenId: 'mapi_abc' }))).toEqual(
      new AdminError('token id "mapi_abc" is not a valid id (expected a UUID)'),
    );
    expect(await failure(useCase.execute({ tokenId: '' }))).toEqual(new AdminError('token id is required'));
  });
});
