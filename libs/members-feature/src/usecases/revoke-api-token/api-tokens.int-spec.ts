import type { RequestContext } from '@mapi/contracts';
import { createOrg, createPhone, newUuid, phoneDirectoryFromDb, useTestDatabase } from '@mapi/testing';
import { membersCaller } from '../../testing/call-members';

/**
 * The token use cases against Postgres, through the handler table: what HTTP cannot show reliably
 * (concurrent revocations, late use stamps, nothing written on a refusal). The routes over HTTP:
 * test/e2e/api-tokens.e2e-spec.ts.
 */
describe('API tokens (integration)', () => {
  const t = useTestDatabase('members-tokens');
  const w: Record<string, any> = {};
  const call = membersCaller(() => ({ prisma: t.prisma, directory: phoneDirectoryFromDb(t.prisma) }));
  const ctx = (org: string, phone_scope: string[] | null = null): RequestContext => ({
    org_id: org,
    token_id: w.caller,
    phone_scope,
    phone: null,
    member: null,
  });
  const entries = (org: string, action: string) => t.prisma.memberAuditEntry.findMany({ where: { org_id: org, action } });

  beforeAll(async () => {
    w.org = (await createOrg(t.prisma)).id;
    w.other = (await createOrg(t.prisma)).id;
    w.caller = newUuid();
    w.phone = await createPhone(t.prisma, w.org);
    w.theirPhone = await createPhone(t.prisma, w.other);
  });

  it("writes nothing when a phone is not the organization's (422), nor for a phone-scoped caller (403)", async () => {
    await expect(
      call('members.v1.tokens.create', { ctx: ctx(w.org), body: { name: 'x', orgPhones: [w.theirPhone.phone_id] } }),
    ).rejects.toMatchObject({ status: 422 });
    await expect(
      call('members.v1.tokens.create', { ctx: ctx(w.org, [w.phone.phone_id]), body: { name: 'x', orgPhones: [w.phone.phone_id] } }),
    ).rejects.toMatchObject({ status: 403 });
    expect(await t.prisma.apiToken.count({ where: { org_id: w.org } })).toBe(0);
    expect(await entries(w.org, 'token.created')).toEqual([]);
  });

  it('records one token.revoked for ten concurrent revocations of one token', async () => {
    const created = await call('members.v1.tokens.create', { ctx: ctx(w.org), body: { name: 'twice', orgPhones: [w.phone.phone_id] } });
    expect(created.phone_scope).toEqual([w.phone.phone_id]);
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, () => call('members.v1.tokens.revoke', { ctx: ctx(w.org), params: { id: created.id } })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(10).fill('fulfilled'));
    expect((await entries(w.org, 'token.revoked')).map((e) => e.target)).toEqual([created.id]);
    expect((await t.prisma.apiToken.findUniqueOrThrow({ where: { id: created.id } })).revoked_at).not.toBeNull();
    await expect(call('members.v1.tokens.revoke', { ctx: ctx(w.other), params: { id: created.id } })).rejects.toMatchObject({
      status: 404,
    });
  });

  it('moves last_used_at forward only (a late stamp from another gateway is dropped)', async () => {
    const created = await call('members.v1.tokens.create', { ctx: ctx(w.org), body: { name: 'used' } });
    const later = new Date('2026-06-01T10:00:00.000Z');
    await call('members.v1.tokens.touch', { body: { token_id: created.id, used_at: later.toISOString() } });
    await call('members.v1.tokens.touch', { body: { token_id: created.id, used_at: '2026-05-01T10:00:00.000Z' } });
    const listed = (await call('members.v1.tokens.list', { ctx: ctx(w.org) })).tokens.find((x: any) => x.id === created.id);
    expect(listed.last_used_at).toBe(later.toISOString());
    expect((await call('members.v1.tokens.list', { ctx: ctx(w.other) })).tokens).toEqual([]);
  });
});
