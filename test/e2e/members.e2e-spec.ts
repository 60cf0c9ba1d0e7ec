import { ConsoleSessionAnswer, ListMembersResponse, MeResponse } from '@mapi/contracts';
import { createChat, createMessages, createOrg, createPhone, createToken, randomDigits } from '@mapi/testing';
import { anonymous, sessionOf, type ConsoleSession } from './support/console-session';
import { client, expect422, expectEnvelope, type Answer } from './support/http';
import { startStack, type Stack } from './support/stack';

/**
 * Members and console sessions end to end (issue 18 item 1): gateway, members, phones and chats as
 * processes. Invite → accept → sign in with the cookie → /v1 with the cookie and the CSRF token;
 * a member's phones narrow what they reach; throttling; sign-out everywhere; every 422.
 */
describe('members: invitations, console sessions, access', () => {
  let stack: Stack;
  let api: ReturnType<typeof client>;
  let other: ReturnType<typeof client>;
  const w: Record<string, any> = {};
  const PASSWORD = 'correct horse battery';
  const tokenOf = (res: Answer, email: string) =>
    (res.body.invitations.find((i: any) => i.email === email).invite_url as string).split('#token=')[1];
  const accept = (token: string, password = PASSWORD) => anonymous(stack.baseUrl, 'POST', '/auth/accept-invite', { token, password });
  const signIn = (email: string, password = PASSWORD) => anonymous(stack.baseUrl, 'POST', '/auth/sign-in', { email, password });
  const chatIds = (res: Answer) => (res.body.chats as any[]).map((c) => c.chat_id).sort();

  beforeAll(async () => {
    stack = await startStack(
      { SIGN_IN_MAX_FAILURES_PER_ACCOUNT: '3', SIGN_IN_MAX_FAILURES_PER_ADDRESS: '1000', SIGN_IN_WINDOW_SECONDS: '30' },
      { services: ['phones', 'members'] },
    );
    w.org = await createOrg(stack.prisma);
    api = client(stack.baseUrl, (await createToken(stack.prisma, w.org.id)).token);
    w.otherOrg = await createOrg(stack.prisma);
    other = client(stack.baseUrl, (await createToken(stack.prisma, w.otherOrg.id)).token);
    w.p1 = await createPhone(stack.prisma, w.org.id);
    w.p2 = await createPhone(stack.prisma, w.org.id);
    w.spare = await createPhone(stack.prisma, w.org.id);
    [w.chat1, w.chat2] = [`${randomDigits()}@c.us`, `${randomDigits()}@c.us`];
    for (const [phone, chatId] of [
      [w.p1, w.chat1],
      [w.p2, w.chat2],
    ]) {
      await createMessages(stack.prisma, w.org, phone, [{ chatId, timestamp: new Date() }]);
      await createChat(stack.prisma, w.org, phone, { chatId });
    }
  }, 120_000);

  afterAll(() => stack?.stop(), 60_000);

  it('invites with a bearer token: pending rows and links back to the inviter (no SMTP server here)', async () => {
    const res = await api.post('/members/invite', { emails: ['amy@example.com'], orgPhones: [w.p1.org_phone.replace('@c.us', '')] });
    expect(res.status).toBe(200);
    expect(res.body.addedMembers[0]).toMatchObject({
      email: 'amy@example.com',
      role: 'member',
      org_phones: [w.p1.org_phone],
      is_active: false,
    });
    expect(res.body.invitations[0]).toMatchObject({ delivery: 'link' });
    w.amyLink = tokenOf(res, 'amy@example.com');
    w.amyId = res.body.addedMembers[0].user_id;
    const admin = await api.post('/members/invite', { emails: ['bob@example.com'], role: 'admin' });
    w.bobLink = tokenOf(admin, 'bob@example.com');
  });

  it('accepts an invitation: http-only SameSite=Strict session cookie, a readable CSRF cookie, no token in the body; once only', async () => {
    const res = await accept(w.amyLink);
    expect(ConsoleSessionAnswer.strict().safeParse(res.body).success).toBe(true);
    expect(res.body.session_token).toBeUndefined();
    w.amy = sessionOf(stack.baseUrl, res);
    const [session, csrf] = ['mapi_session=', 'mapi_csrf='].map((p) => w.amy.setCookies.find((c: string) => c.startsWith(p)));
    expect(session).toMatch(/; Path=\/v1; Max-Age=\d+; SameSite=Strict; HttpOnly; Secure$/);
    expect(csrf).toMatch(/; Path=\/; Max-Age=\d+; SameSite=Strict; Secure$/);
    expect(w.amy.csrf).toBe(res.body.csrf_token);
    expect((await accept(w.amyLink)).status).toBe(422);
    w.bob = sessionOf(stack.baseUrl, await accept(w.bobLink));
  });

  it("calls /v1 with the cookie: a member limited to one phone sees none of another phone's chats", async () => {
    expect(chatIds(await w.amy.call('GET', '/chats'))).toEqual([w.chat1]);
    expect((await w.amy.call('GET', '/chats', undefined, { 'x-phone': w.p2.phone_id })).status).toBe(401);
    expect((await w.amy.call('GET', `/chats/${w.chat2}`)).status).toBe(404);
    expect(chatIds(await w.bob.call('GET', '/chats'))).toEqual([w.chat1, w.chat2].sort());
    const me = await w.amy.call('GET', '/auth/me');
    expect(MeResponse.safeParse(me.body).success).toBe(true);
    expect(me.body).toMatchObject({ role: 'member', phone_ids: [w.p1.phone_id], member: { email: 'amy@example.com', is_active: true } });
    expect((await api.get('/auth/me')).status).toBe(401);
  });

  it('needs the CSRF token on changes made with the cookie (403 without or with a wrong one)', async () => {
    const body = { emails: ['amy@example.com'], orgPhones: [w.p1.phone_id, w.p2.phone_id], labels: null };
    for (const headers of [{ 'x-csrf-token': '' }, { 'x-csrf-token': 'wrong' }, { 'x-csrf-token': w.amy.csrf }]) {
      const res = await anonymous(stack.baseUrl, 'PATCH', '/members/access', body, { cookie: w.bob.cookie, ...headers });
      expect(res.status).toBe(403);
      expectEnvelope(res.body, 'FORBIDDEN_ERROR', 403);
    }
    const ok = await w.bob.call('PATCH', '/members/access', body);
    expect(ok.status).toBe(200);
    expect(chatIds(await w.amy.call('GET', '/chats'))).toEqual([w.chat1, w.chat2].sort());
    await w.bob.call('PATCH', '/members/access', { ...body, orgPhones: [w.p1.phone_id] });
    expect(chatIds(await w.amy.call('GET', '/chats'))).toEqual([w.chat1]);
  });

  it('lets a member list members but not invite, change access, remove or read the audit trail', async () => {
    const list = await w.amy.call('GET', '/members');
    expect(ListMembersResponse.safeParse(list.body).success).toBe(true);
    expect(list.body.map((m: any) => m.email).sort()).toEqual(['amy@example.com', 'bob@example.com']);
    for (const [method, path, body] of [
      ['POST', '/members/invite', { emails: ['x@example.com'] }],
      ['PATCH', '/members/access', { emails: ['bob@example.com'], orgPhones: null, labels: null }],
      ['DELETE', '/members/bob@example.com'],
      ['GET', '/members/audit'],
    ] as const) {
      const res = await w.amy.call(method, path, body);
      expect(res.status).toBe(403);
      expectEnvelope(res.body, 'FORBIDDEN_ERROR', 403);
    }
  });

  it("refuses a member the organization's administration: webhooks, adding, resetting and deleting phones, purging queues (403, nothing reaches the service)", async () => {
    const x = { 'x-phone': w.p1.phone_id };
    const before = await stack.prisma.phone.count({ where: { org_id: w.org.id } });
    for (const [method, path, body, headers] of [
      ['GET', '/webhooks'],
      ['POST', '/webhooks', { hookUrl: 'https://example.com/hook', integrationName: 'message.created' }],
      ['POST', '/webhooks/6f1c1b1e-0000-4000-8000-000000000000/secret/rotate'],
      ['DELETE', '/webhooks/6f1c1b1e-0000-4000-8000-000000000000'],
      ['POST', '/phones/create', { phone_name: 'mine' }],
      ['POST', '/phones/reset', undefined, x],
      ['DELETE', '/phones/delete', undefined, x],
      ['POST', '/message/queues/purge', {}, x],
      ['DELETE', '/queue/purge', undefined, x],
    ] as const) {
      const res = await w.amy.call(method, path, body, headers);
      expect({ path, status: res.status }).toEqual({ path, status: 403 });
      expectEnvelope(res.body, 'FORBIDDEN_ERROR', 403);
    }
    expect(await stack.prisma.phone.count({ where: { org_id: w.org.id } })).toBe(before);
  });

  it('keeps another organization out: its ids read nothing and change nothing', async () => {
    expect((await other.get('/members')).body).toEqual([]);
    expect((await other.delete(`/members/${w.amyId}`)).status).toBe(404);
    expect((await other.delete('/members/amy@example.com')).status).toBe(404);
    expect422(await other.patch('/members/access', { emails: ['amy@example.com'], orgPhones: [], labels: [] }), 'body.emails');
    expect422(
      await other.post('/members/invite', { emails: ['z@example.com'], orgPhones: [w.p1.org_phone.replace('@c.us', '')] }),
      'body.orgPhones',
    );
    expect((await other.get('/members/audit')).body).toEqual({ entries: [], count: 0 });
    expect((await api.get('/members')).body.find((m: any) => m.email === 'amy@example.com')).toMatchObject({
      org_phones: [w.p1.org_phone],
    });
  });

  it('records who did what: invitations, joins, access changes, and a phone deleted through the API', async () => {
    expect((await api.delete('/phones/delete', { 'x-phone': w.spare.phone_id })).status).toBe(204);
    const trail = async () => (await w.bob.call('GET', '/members/audit?limit=100')).body.entries as any[];
    let entries = await trail();
    for (let i = 0; i < 50 && !entries.some((e) => e.action === 'phone.deleted'); i++) {
      await new Promise((r) => setTimeout(r, 100));
      entries = await trail();
    }
    const seen = entries.map((e) => `${e.action} ${e.target} ${e.actor_type}`);
    expect(seen).toEqual(
      expect.arrayContaining([
        `phone.deleted ${w.spare.phone_id} token`,
        'member.invited amy@example.com token',
        'member.joined amy@example.com member',
        'member.access_updated amy@example.com member',
      ]),
    );
    expect(entries.find((e) => e.action === 'member.access_updated').actor_email).toBe('bob@example.com');
  });

  it('throttles failed sign-ins per account: past the limit even the right password is 429 with Retry-After', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await signIn('bob@example.com', 'not the password');
      expect(res.status).toBe(401);
      expectEnvelope(res.body, 'UNAUTHORIZED_ERROR', 401);
    }
    const refused = await signIn('bob@example.com');
    expect(refused.status).toBe(429);
    expectEnvelope(refused.body, 'RATE_LIMIT_ERROR', 429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await signIn('amy@example.com')).status).toBe(200);
  });

  it('signs out one session, then everywhere: every session of the member stops working', async () => {
    const second = sessionOf(stack.baseUrl, await signIn('amy@example.com'));
    const third = sessionOf(stack.baseUrl, await signIn('amy@example.com'));
    const out = await second.call('POST', '/auth/sign-out');
    expect(out.status).toBe(204);
    expect(out.headers.getSetCookie().some((c) => c.startsWith('mapi_session=;') && c.includes('Max-Age=0'))).toBe(true);
    expect((await second.call('GET', '/chats')).status).toBe(401);
    expect((await third.call('GET', '/chats')).status).toBe(200);
    const everywhere = await third.call('POST', '/auth/sign-out-everywhere');
    expect(everywhere.body.sessions_ended).toBeGreaterThanOrEqual(2);
    for (const s of [w.amy, third] as ConsoleSession[]) {
      const res = await s.call('GET', '/chats');
      expect(res.status).toBe(401);
      expectEnvelope(res.body, 'UNAUTHORIZED_ERROR', 401);
    }
  });

  it('changes a role: a member made admin administers from their next request, made member again is refused (403); another organization changes nothing', async () => {
    const amy = sessionOf(stack.baseUrl, await signIn('amy@example.com')); // signed out everywhere above
    expect((await amy.call('GET', '/members/audit')).status).toBe(403);
    expect((await amy.call('PATCH', '/members/role', { emails: ['amy@example.com'], role: 'admin' })).status).toBe(403);
    expect422(await other.patch('/members/role', { emails: ['amy@example.com'], role: 'admin' }), 'body.emails');
    const promoted = await api.patch('/members/role', { emails: ['amy@example.com'], role: 'admin' });
    expect(promoted.status).toBe(200);
    expect(promoted.body).toEqual([expect.objectContaining({ email: 'amy@example.com', role: 'admin' })]);
    expect((await amy.call('GET', '/members/audit')).status).toBe(200);
    expect((await amy.call('GET', '/chats')).body.chats.map((c: any) => c.chat_id).sort()).toEqual([w.chat1, w.chat2].sort());
    const demoted = await w.bob.call('PATCH', '/members/role', { emails: ['amy@example.com'], role: 'member' });
    expect(demoted.body).toEqual([expect.objectContaining({ email: 'amy@example.com', role: 'member', org_phones: [w.p1.org_phone] })]);
    expect((await amy.call('GET', '/members/audit')).status).toBe(403);
    expect(chatIds(await amy.call('GET', '/chats'))).toEqual([w.chat1]);
    expect422(await api.patch('/members/role', { emails: ['amy@example.com'], role: 'owner' }), 'body.role');
    const entries = (await api.get('/members/audit?limit=100')).body.entries.filter((e: any) => e.action === 'member.role_updated');
    expect(entries.map((e: any) => e.details)).toEqual(
      expect.arrayContaining([
        { from: 'member', to: 'admin' },
        { from: 'admin', to: 'member' },
      ]),
    );
  });

  it('removes a member: their sessions end at once; the owner route needs owners or admins', async () => {
    const again = sessionOf(stack.baseUrl, await signIn('amy@example.com'));
    expect((await w.bob.call('DELETE', `/members/${w.amyId}`)).status).toBe(204);
    expect((await again.call('GET', '/chats')).status).toBe(401);
    expect((await signIn('amy@example.com')).status).toBe(401);
    expect((await api.delete(`/members/${w.amyId}`)).status).toBe(404);
  });

  it('answers every malformed request with 422 and its field', async () => {
    expect422(await api.post('/members/invite', { emails: ['not-an-email'] }), 'body.emails.0');
    expect422(await api.post('/members/invite', { emails: [] }), 'body.emails');
    expect422(await api.post('/members/invite', { emails: ['a@example.com'], role: 'owner' }), 'body.role');
    expect422(await api.post('/members/invite', { emails: ['a@example.com'], orgPhones: 'all' }), 'body.orgPhones');
    expect422(await api.post('/members/invite', { emails: ['a@example.com'], orgPhones: ['123456789012'] }), 'body.orgPhones');
    expect422(await api.post('/members/invite', { emails: ['a@example.com'], labels: [''] }), 'body.labels.0');
    expect422(await api.patch('/members/access', { emails: ['bob@example.com'], orgPhones: null }), 'body.labels');
    expect422(await api.patch('/members/access', { emails: ['nobody@example.com'], orgPhones: null, labels: null }), 'body.emails');
    expect422(await api.delete('/members/%20'), 'id');
    expect422(await api.delete(`/members/${'x'.repeat(300)}`), 'path');
    expect422(await api.get('/members/audit?limit=0'), 'limit');
    expect422(await accept('a-token', 'short'), 'body.password');
    expect422(await accept('not-a-real-token'), 'token');
    expect422(await anonymous(stack.baseUrl, 'POST', '/auth/sign-in', { email: 'bob@example.com' }), 'body.password');
    expect422(await anonymous(stack.baseUrl, 'POST', '/auth/sign-in', { email: 'bob', password: 'x' }), 'body.email');
    expect422(
      await anonymous(stack.baseUrl, 'POST', '/auth/sign-in', { email: 'bob@example.com', password: 'x', org_id: 'nope' }),
      'body.org_id',
    );
  });
});
