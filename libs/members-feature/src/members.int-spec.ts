import { ServiceError, type RequestContext } from '@mapi/contracts';
import { createOrg, createPhone, newUuid, phoneDirectoryFromDb, useTestDatabase } from '@mapi/testing';
import { membersCaller } from './testing/call-members';
import { NO_MAILER, type InviteMailer } from './mail/invite-mailer';
import { sha256Hex } from './secrets';

/**
 * The members service's use cases against Postgres, through its handler table (the same objects the
 * service binds). The phones service is read from the test database's phones rows (phoneDirectoryFromDb);
 * test/e2e/members.e2e-spec.ts runs the real one, the gateway and the cookies.
 */
describe('members (integration)', () => {
  const t = useTestDatabase('members');
  const w: Record<string, any> = {};
  const sent: { to: string; url: string }[] = [];
  let mailer: InviteMailer = NO_MAILER;
  const call = membersCaller(
    () => ({ prisma: t.prisma, directory: phoneDirectoryFromDb(t.prisma) }),
    () => ({
      mailer: {
        get configured() {
          return mailer.configured;
        },
        send: (m) => mailer.send(m),
      },
    }),
  );
  const ctx = (org: string, member: RequestContext['member'] = null): RequestContext => ({
    org_id: org,
    token_id: w.token,
    phone_scope: null,
    phone: null,
    member,
  });
  const failure = async (p: Promise<unknown>) => {
    const err = await p.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ServiceError);
    return err as ServiceError;
  };
  const tokenOf = (url: string) => url.split('#token=')[1];
  const invite = (org: string, body: Record<string, unknown>, member: RequestContext['member'] = null) =>
    call('members.v1.invite', { ctx: ctx(org, member), body });
  const accept = (token: string, password = 'correct horse battery') =>
    call('members.v1.auth.accept-invite', { body: { token, password, name: 'Amy' } });
  const audit = (org: string) => t.prisma.memberAuditEntry.findMany({ where: { org_id: org }, orderBy: { created_at: 'asc' } });

  beforeAll(async () => {
    w.org = (await createOrg(t.prisma)).id;
    w.other = (await createOrg(t.prisma)).id;
    w.token = newUuid();
    w.p1 = await createPhone(t.prisma, w.org);
    w.p2 = await createPhone(t.prisma, w.org);
    w.q1 = await createPhone(t.prisma, w.other);
  });

  it('invites by email without a mail server: a pending tbl_org_members row, and the link back to the inviter', async () => {
    const res = await invite(w.org, {
      emails: ['Amy@Example.com', 'amy@example.com'],
      orgPhones: [w.p1.org_phone.replace('@c.us', '')],
      labels: ['VIP'],
    });
    expect(res.errors).toEqual([]);
    expect(res.addedMembers).toHaveLength(1);
    expect(res.addedMembers[0]).toMatchObject({
      email: 'amy@example.com',
      org_id: w.org,
      role: 'member',
      is_active: false,
      is_owner: false,
      org_phones: [w.p1.org_phone],
      label_ids: ['vip'],
      invited_by: w.token,
    });
    expect(res.invitations[0]).toMatchObject({ email: 'amy@example.com', delivery: 'link' });
    expect(res.invitations[0].invite_url).toMatch(/^https:\/\/console\.example\/accept-invite#token=[A-Za-z0-9_-]{43}$/);
    w.amyLink = tokenOf(res.invitations[0].invite_url);
    w.amy = res.addedMembers[0].user_id;
    const stored = await t.prisma.memberInvitation.findMany({ where: { member_id: w.amy } });
    expect(stored.map((i) => i.token_hash)).toEqual([sha256Hex(w.amyLink)]);
  });

  it("refuses a phone the organization does not have (another organization's too) with 422 on body.orgPhones, writing nothing", async () => {
    const before = await t.prisma.member.count();
    for (const phone of [w.q1.org_phone.replace('@c.us', ''), w.q1.phone_id, '999999999']) {
      const err = await failure(invite(w.org, { emails: ['x@example.com'], orgPhones: [phone] }));
      expect(err.status).toBe(422);
      expect(Object.keys(err.fields!)).toEqual(['body.orgPhones']);
    }
    expect(await t.prisma.member.count()).toBe(before);
  });

  it('accepts an invitation once: the password is stored as argon2id, a session opens, the link is used up', async () => {
    const session = await accept(w.amyLink);
    expect(session.member).toMatchObject({ email: 'amy@example.com', is_active: true, member_name: 'Amy' });
    expect(session.session_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const row = await t.prisma.member.findUniqueOrThrow({ where: { member_id: w.amy } });
    expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    const again = await failure(accept(w.amyLink));
    expect([again.status, Object.keys(again.fields!)]).toEqual([422, ['token']]);
    const found = await call('members.v1.sessions.authenticate', { token_hash: sha256Hex(session.session_token) });
    expect(found).toMatchObject({
      member_id: w.amy,
      org_id: w.org,
      role: 'member',
      phone_ids: [w.p1.phone_id],
      label_ids: ['vip'],
      csrf_hash: sha256Hex(session.csrf_token),
    });
    w.amySession = found;
  });

  it('refuses an expired or unknown link with 422 on token', async () => {
    const res = await invite(w.org, { emails: ['late@example.com'] });
    const token = tokenOf(res.invitations[0].invite_url);
    await t.prisma.memberInvitation.updateMany({
      where: { token_hash: sha256Hex(token) },
      data: { expires_at: new Date(Date.now() - 1000) },
    });
    expect((await failure(accept(token))).status).toBe(422);
    expect((await failure(accept('not-a-real-token'))).status).toBe(422);
  });

  it('a second invitation of a pending address replaces its link; an active address is an entry of errors', async () => {
    const first = tokenOf((await invite(w.org, { emails: ['bob@example.com'], role: 'admin' })).invitations[0].invite_url);
    const second = await invite(w.org, { emails: ['bob@example.com', 'amy@example.com'], role: 'admin', orgPhones: ['123456789'] });
    expect(second.addedMembers.map((m: any) => [m.email, m.role, m.org_phones])).toEqual([['bob@example.com', 'admin', null]]);
    expect(second.errors).toEqual([{ email: 'amy@example.com', error: { message: 'already a member of this organization' } }]);
    expect((await failure(accept(first))).status).toBe(422);
    const bob = await accept(tokenOf(second.invitations[0].invite_url));
    w.bobSession = await call('members.v1.sessions.authenticate', { token_hash: sha256Hex(bob.session_token) });
    expect(w.bobSession).toMatchObject({ role: 'admin', phone_ids: null });
  });

  it('signs in with the right password only; an unknown address reads the same 401', async () => {
    const ok = await call('members.v1.auth.sign-in', { body: { email: 'AMY@example.com', password: 'correct horse battery' } });
    expect(ok.member.user_id).toBe(w.amy);
    for (const body of [
      { email: 'amy@example.com', password: 'wrong password!' },
      { email: 'nobody@example.com', password: 'correct horse battery' },
      { email: 'amy@example.com', password: 'correct horse battery', org_id: w.other },
    ]) {
      const err = await failure(call('members.v1.auth.sign-in', { body }));
      expect([err.status, err.message]).toEqual([401, 'Wrong email or password']);
    }
  });

  it("changes access by email (owners and admins unchanged); an unknown email or another organization's is 422 and changes nothing", async () => {
    const rows = await call('members.v1.access.update', {
      ctx: ctx(w.org),
      body: {
        emails: ['amy@example.com', 'bob@example.com'],
        orgPhones: [w.p2.phone_id, w.p1.org_phone.replace('@c.us', '')],
        labels: null,
      },
    });
    expect(rows.map((r: any) => [r.email, r.org_phones, r.label_ids])).toEqual([
      ['amy@example.com', [w.p2.org_phone, w.p1.org_phone], null],
      ['bob@example.com', null, null],
    ]);
    const session = await call('members.v1.sessions.authenticate', {
      token_hash: (await t.prisma.memberSession.findFirstOrThrow({ where: { member_id: w.amy } })).token_hash,
    });
    expect(session.phone_ids).toEqual([w.p2.phone_id, w.p1.phone_id]);
    const err = await failure(
      call('members.v1.access.update', { ctx: ctx(w.other), body: { emails: ['amy@example.com'], orgPhones: [], labels: [] } }),
    );
    expect([err.status, Object.keys(err.fields!)]).toEqual([422, ['body.emails']]);
    expect((await t.prisma.member.findUniqueOrThrow({ where: { member_id: w.amy } })).phone_ids).toEqual([w.p2.phone_id, w.p1.phone_id]);
  });

  it('a member (role member) may list but not invite, change access, remove or read the audit trail (403)', async () => {
    const amy = { member_id: w.amy, session_id: w.amySession.session_id, email: 'amy@example.com', role: 'member' as const };
    expect((await call('members.v1.list', { ctx: ctx(w.org, amy) })).length).toBeGreaterThan(1);
    for (const [subject, extra] of [
      ['members.v1.invite', { body: { emails: ['c@example.com'] } }],
      ['members.v1.access.update', { body: { emails: ['amy@example.com'], orgPhones: null, labels: null } }],
      ['members.v1.delete', { params: { id: 'bob@example.com' } }],
      ['members.v1.audit.list', { query: {} }],
    ] as const) {
      expect((await failure(call(subject, { ctx: ctx(w.org, amy), ...extra }))).status).toBe(403);
    }
  });

  it('lists and removes only within the organization: another organization reads nothing and removes nothing (404)', async () => {
    expect(await call('members.v1.list', { ctx: ctx(w.other) })).toEqual([]);
    for (const id of [w.amy, 'amy@example.com'])
      expect((await failure(call('members.v1.delete', { ctx: ctx(w.other), params: { id } }))).status).toBe(404);
    expect(await t.prisma.member.count({ where: { member_id: w.amy } })).toBe(1);
    expect((await call('members.v1.audit.list', { ctx: ctx(w.other), query: {} })).entries).toEqual([]);
  });

  it('removes a member by user_id: sessions end with it; the owner cannot be removed', async () => {
    await call('members.v1.delete', { ctx: ctx(w.org), params: { id: w.amy } });
    expect(await t.prisma.memberSession.count({ where: { member_id: w.amy } })).toBe(0);
    expect(await call('members.v1.sessions.authenticate', { token_hash: sha256Hex('gone') })).toBeNull();
    const owner = await t.prisma.member.create({
      data: { member_id: newUuid(), org_id: w.org, email: 'owner@example.com', role: 'owner' },
    });
    expect((await failure(call('members.v1.delete', { ctx: ctx(w.org), params: { id: owner.member_id } }))).status).toBe(403);
    expect((await failure(call('members.v1.delete', { ctx: ctx(w.org), params: { id: 'amy@example.com' } }))).status).toBe(404);
  });

  it('signs out one session, then every session of the member', async () => {
    const bob = {
      member_id: w.bobSession.member_id,
      session_id: w.bobSession.session_id,
      email: 'bob@example.com',
      role: 'admin' as const,
    };
    const more = await call('members.v1.auth.sign-in', { body: { email: 'bob@example.com', password: 'correct horse battery' } });
    await call('members.v1.auth.sign-out', { ctx: ctx(w.org, bob) });
    expect((await t.prisma.memberSession.findUniqueOrThrow({ where: { session_id: bob.session_id } })).revoked_at).not.toBeNull();
    expect(await call('members.v1.sessions.authenticate', { token_hash: sha256Hex(more.session_token) })).not.toBeNull();
    expect(await call('members.v1.auth.sign-out-everywhere', { ctx: ctx(w.org, bob) })).toEqual({ sessions_ended: 1 });
    expect(await call('members.v1.sessions.authenticate', { token_hash: sha256Hex(more.session_token) })).toBeNull();
  });

  it('keeps the audit trail: invitations, joins, access changes, removals and recorded entries, per organization', async () => {
    await call('members.v1.audit.record', {
      body: { org_id: w.org, actor_type: 'token', actor_id: w.token, actor_email: null, action: 'phone.deleted', target: w.p2.phone_id },
    });
    const actions = (await audit(w.org)).map((a) => `${a.action} ${a.target}`);
    expect(actions).toEqual(
      expect.arrayContaining([
        'member.invited amy@example.com',
        'member.joined amy@example.com',
        'member.access_updated amy@example.com',
        'member.removed amy@example.com',
        `phone.deleted ${w.p2.phone_id}`,
      ]),
    );
    expect(actions).not.toContain('member.access_updated bob@example.com');
    const page = await call('members.v1.audit.list', { ctx: ctx(w.org), query: { limit: 2 } });
    expect(page.entries).toHaveLength(2);
    expect(page.entries[0].action).toBe('phone.deleted');
    expect(page.count).toBe(actions.length);
    expect(await audit(w.other)).toEqual([]);
  });

  it('mails the link when a mail server is configured, and returns it to the inviter when the send fails', async () => {
    mailer = { configured: true, send: async (m) => (sent.push(m), true) };
    const mailed = await invite(w.org, { emails: ['carol@example.com'] });
    expect(mailed.invitations[0]).toMatchObject({ delivery: 'email', invite_url: null });
    expect(sent[0].to).toBe('carol@example.com');
    mailer = { configured: true, send: async () => false };
    const failed = await invite(w.org, { emails: ['dave@example.com'] });
    expect(failed.invitations[0]).toMatchObject({ delivery: 'link' });
    expect(failed.invitations[0].invite_url).toContain('#token=');
    mailer = NO_MAILER;
  });
});
