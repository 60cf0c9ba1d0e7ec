import { PHONE_ID } from '@mapi/contracts';
import { useTestDatabase } from '@mapi/testing';
import { AdminError } from '../../admin-error';
import { CreateOrganization } from '../create-organization/create-organization.usecase';
import { CreatePhone } from './create-phone.usecase';

describe('CreatePhone', () => {
  const t = useTestDatabase('admin_phone_create');
  let useCase: CreatePhone;
  let orgId: string;
  let otherOrgId: string;

  beforeAll(async () => {
    useCase = new CreatePhone(t.prisma);
    orgId = (await new CreateOrganization(t.prisma).execute({ name: 'Phones Inc' })).id;
    otherOrgId = (await new CreateOrganization(t.prisma).execute({ name: 'Other Inc' })).id;
  });

  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (e: unknown) => e,
    );

  it('registers <digits>@c.us under a new phone-<16 lowercase alphanumerics> id', async () => {
    const phone = await useCase.execute({ orgId, digits: '14155550100', name: 'Front desk' });
    expect(phone.phone_id).toMatch(/^phone-[a-z0-9]{16}$/);
    expect(PHONE_ID.test(phone.phone_id)).toBe(true);
    const row = await t.prisma.phone.findUniqueOrThrow({ where: { phone_id: phone.phone_id } });
    expect(row).toMatchObject({ org_id: orgId, org_phone: '14155550100@c.us', phone_name: 'Front desk', deleted_at: null });
  });

  it('makes a different id each time and leaves the name empty when not given', async () => {
    const a = await useCase.execute({ orgId, digits: '14155550101' });
    const b = await useCase.execute({ orgId, digits: '14155550102' });
    expect(a.phone_id).not.toBe(b.phone_id);
    expect(a.phone_name).toBeNull();
  });

  it.each(['12ab', '+14155550100', '1415 555 0100', '12345', '1'.repeat(21), ''])('refuses the number %j', async (digits) => {
    const error = await failure(useCase.execute({ orgId, digits }));
    expect(error).toBeInstanceOf(AdminError);
    expect((error as Error).message).toMatch(/is not valid: use country code \+ number/);
  });

  it('refuses an unknown or malformed organization id', async () => {
    const unknown = await failure(useCase.execute({ orgId: '00000000-0000-4000-8000-000000000000', digits: '14155550109' }));
    expect(unknown).toEqual(new AdminError('organization 00000000-0000-4000-8000-000000000000 not found'));
    const malformed = await failure(useCase.execute({ orgId: 'acme', digits: '14155550109' }));
    expect(malformed).toEqual(new AdminError('organization id "acme" is not a valid id (expected a UUID)'));
  });

  it('refuses a number the organization already has, but not one of another organization', async () => {
    const error = await failure(useCase.execute({ orgId, digits: '14155550100' }));
    expect(error).toBeInstanceOf(AdminError);
    expect((error as Error).message).toContain('already has phone 14155550100');
    await expect(useCase.execute({ orgId: otherOrgId, digits: '14155550100' })).resolves.toMatchObject({ org_id: otherOrgId });
  });
});
