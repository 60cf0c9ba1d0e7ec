import { UpdateMemberRoleRpc, type RequestContext } from '@mapi/contracts';
import { createOrg, createPhone, newUuid, phoneDirectoryFromDb, useTestDatabase } from '@mapi/testing';
import { membersCaller } from '../../testing/call-members';

/**
 * PATCH /members/role against Postgres, through the handler table: promotion and demotion keep the
 * stored access, the owner and a member's session are refused, an email of another organization changes
 * nothing, and the live session reads the new role. Over HTTP: test/e2e/members.e2e-spec.ts.
 */
describe('member roles (integration)', () => {
  const t = useTestDatabase('members-roles');
  const w: Record<string, any> = {};
  const call = membersCaller(() => ({ prisma: t.prisma, directory: phoneDirectoryFromDb(t.prisma) }));
  const ctx = (org: string, member: RequestContext['member'] = null): RequestContext => ({
    org_id: org,
    token_id: w.caller,
    phone_scope: null,
    phone: null,
    member,
  });
  const setRole = (org: string, emails: string[], role: string, member: RequestContext['member'] = null) =>
    call('members.v1.role.update', { ctx: ctx(org, member), body: { emails, role } });
  const stored = (email: string) => t.prisma.member.findFirstOrThrow({ where: { org_id: w.org, email } });
  const roleEntries = (org: string) =>
    t.prisma.memberAuditEntry.findMany({ where: { org_id: org, action: 'member.role_updated' }, orderBy: { created_at: 'asc' } });

  beforeAll(async () => {
    w.org = (await createOrg(t.prisma)).id;
    w.other = (await createOrg(t.prisma)).id;
    w.caller = newUuid();
    w.phone = await createPhone(t.prisma, w.org);
    const invited = await call('members.v1.invite', {
      ctx: ctx(w.org),
      body: { emails: ['amy@example.com', 'bob@example.com'], role: 'member', orgPhones: [w.phone.phone_id], labels: ['vip'] },
    });
    expect(invited.addedMembers).toHaveLength(2);
    await t.prisma.member.create({ data: { member_id: newUuid(), org_id: w.org, email: 'owner@example.com', role: 'owner' } });
    await call('members.v1.invite', { ctx: ctx(w.other), body: { emails: ['zoe@example.com'], role: 'member' } });
  });

  it('promotes a member to admin and back, keeping the access stored for them; one audit entry per change', async () => {
    const [amy] = await setRole(w.org, ['amy@example.com'], 'admin');
    expect(amy).toMatchObject({ email: 'amy@example.com', role: 'admin', is_owner: false });
    expect((await stored('amy@example.com')).role).toBe('admin');
    const [back] = await setRole(w.org, ['AMY@example.com'], 'member');
    expect(back).toMatchObject({ role: 'member', org_phones: [w.phone.org_phone], label_ids: ['vip'] });
    expect((await roleEntries(w.org)).map((e) => [e.target, e.details])).toEqual([
      ['amy@example.com', { from: 'member', to: 'admin' }],
      ['amy@example.com', { from: 'admin', to: 'member' }],
    ]);
  });

  it('a role already held changes nothing and records nothing', async () => {
    const before = (await roleEntries(w.org)).length;
    const [bob] = await setRole(w.org, ['bob@example.com'], 'member');
    expect(bob.role).toBe('member');
    expect(await roleEntries(w.org)).toHaveLength(before);
  });

  it("refuses the owner (403), an unknown or another organization's email (422), and a member's session (403): nothing changes", async () => {
    const before = (await roleEntries(w.org)).length;
    await expect(setRole(w.org, ['bob@example.com', 'owner@example.com'], 'member')).rejects.toMatchObject({ status: 403 });
    await expect(setRole(w.org, ['bob@example.com', 'zoe@example.com'], 'admin')).rejects.toMatchObject({
      status: 422,
      fields: { 'body.emails': { value: ['zoe@example.com'] } },
    });
    await expect(setRole(w.other, ['bob@example.com'], 'admin')).rejects.toMatchObject({ status: 422 });
    const bobRow = await stored('bob@example.com');
    await expect(
      setRole(w.org, ['bob@example.com'], 'admin', {
        member_id: bobRow.member_id,
        session_id: newUuid(),
        email: 'bob@example.com',
        role: 'member',
        label_ids: null,
      }),
    ).rejects.toMatchObject({ status: 403 });
    expect((await stored('bob@example.com')).role).toBe('member');
    expect((await stored('owner@example.com')).role).toBe('owner');
    expect(await roleEntries(w.org)).toHaveLength(before);
    expect(await roleEntries(w.other)).toEqual([]);
  });

  it('refuses a role the API does not give (owner) at the contract: 422 on body.role', () => {
    const parsed = UpdateMemberRoleRpc.request.safeParse({ ctx: ctx(w.org), body: { emails: ['bob@example.com'], role: 'owner' } });
    expect(parsed.success).toBe(false);
  });
});
