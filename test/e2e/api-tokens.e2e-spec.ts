import { createHash } from 'node:crypto';
import { CreatedApiTokenSchema, ListApiTokensResponse } from '@mapi/contracts';
import { createOrg, createPhone, createToken } from '@mapi/testing';
import { joinByInvitation, type ConsoleSession } from './support/console-session';
import { client, expect422, expectEnvelope, until } from './support/http';
import { startStack, type Stack } from './support/stack';

/**
 * API tokens over HTTP (issue 18, the console's "API tokens"): gateway, members and phones as
 * processes. An admin's session creates a token (shown once, only its hash stored) and the API
 * answers it; a phone-scoped one reaches only its phones; a revoked one is 401 at its next request;
 * the audit trail says who created and revoked; members, scoped tokens and other organizations are refused.
 */
describe('API tokens: create, list, revoke', () => {
  let stack: Stack;
  let api: ReturnType<typeof client>;
  let other: ReturnType<typeof client>;
  let admin: ConsoleSession;
  let member: ConsoleSession;
  const w: Record<string, any> = {};
  const PASSWORD = 'correct horse battery';
  const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
  const joined = (email: string, role: 'admin' | 'member') => joinByInvitation(stack.baseUrl, api, { emails: [email], role }, PASSWORD);

  beforeAll(async () => {
    stack = await startStack({}, { services: ['phones', 'members'] });
    w.org = await createOrg(stack.prisma);
    api = client(stack.baseUrl, (await createToken(stack.prisma, w.org.id)).token);
    w.otherOrg = await createOrg(stack.prisma);
    other = client(stack.baseUrl, (await createToken(stack.prisma, w.otherOrg.id)).token);
    w.p1 = await createPhone(stack.prisma, w.org.id);
    w.p2 = await createPhone(stack.prisma, w.org.id);
    admin = await joined('ada@example.com', 'admin');
    member = await joined('mo@example.com', 'member');
  }, 120_000);

  afterAll(() => stack?.stop(), 60_000);

  it('creates a token from an admin session: shown once, only its hash stored, and the API answers it', async () => {
    const res = await admin.call('POST', '/api-tokens/create', { name: '  CRM sync ' });
    expect(res.status).toBe(201);
    expect(CreatedApiTokenSchema.strict().safeParse(res.body).success).toBe(true);
    expect(res.body).toMatchObject({ name: 'CRM sync', phone_scope: null, revoked_at: null, last_used_at: null });
    expect(res.body.token.startsWith(res.body.prefix)).toBe(true);
    const row = await stack.prisma.apiToken.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(row).toMatchObject({ org_id: w.org.id, token_hash: sha256(res.body.token), phone_scoped: false });
    expect(JSON.stringify(row)).not.toContain(res.body.token);
    w.crm = res.body;
    const withIt = client(stack.baseUrl, w.crm.token);
    expect((await withIt.get('/phones/all')).status).toBe(200);
    const listed = await until(
      () => admin.call('GET', '/api-tokens'),
      (r) => r.body.tokens?.find((t: any) => t.id === w.crm.id)?.last_used_at !== null,
      10_000,
      'last use recorded',
    );
    expect(ListApiTokensResponse.strict().safeParse(listed.body).success).toBe(true);
    expect(JSON.stringify(listed.body)).not.toContain(w.crm.token);
  });

  it('limits a token to the phones given (numbers or phone_ids): another phone is 401', async () => {
    const res = await api.post('/api-tokens/create', { name: 'one phone', orgPhones: [w.p1.org_phone.replace('@c.us', '')] });
    expect(res.status).toBe(201);
    expect(res.body.phone_scope).toEqual([w.p1.phone_id]);
    const scoped = client(stack.baseUrl, res.body.token);
    expect((await scoped.get('/chats', { 'x-phone': w.p1.phone_id })).status).toBe(200);
    expect((await scoped.get('/chats', { 'x-phone': w.p2.phone_id })).status).toBe(401);
    w.scoped = { ...res.body, client: scoped };
  });

  it('refuses bad input with 422 and the field (creating nothing); stores text Postgres cannot hold safely', async () => {
    const before = await stack.prisma.apiToken.count({ where: { org_id: w.org.id } });
    expect422(await api.post('/api-tokens/create', {}), 'body.name');
    expect422(await api.post('/api-tokens/create', { name: '   ' }), 'body.name');
    expect422(await api.post('/api-tokens/create', { name: 'x'.repeat(101) }), 'body.name');
    expect422(await api.post('/api-tokens/create', { name: 7 }), 'body.name');
    expect422(await api.post('/api-tokens/create', { name: 'a', orgPhones: [] }), 'body.orgPhones');
    expect422(await api.post('/api-tokens/create', { name: 'a', orgPhones: 'all' }), 'body.orgPhones');
    expect422(await api.post('/api-tokens/create', { name: 'a', orgPhones: ['4915550000000'] }), 'body.orgPhones');
    const otherPhone = await createPhone(stack.prisma, w.otherOrg.id);
    expect422(await api.post('/api-tokens/create', { name: 'a', orgPhones: [otherPhone.phone_id] }), 'body.orgPhones');
    expect422(await api.delete('/api-tokens/not-a-uuid'), 'id');
    expect(await stack.prisma.apiToken.count({ where: { org_id: w.org.id } })).toBe(before);
    // Text Postgres cannot store (a lone UTF-16 surrogate) is replaced, not a 500.
    const odd = await api.post('/api-tokens/create', { name: 'odd \ud800 name' });
    expect(odd.status).toBe(201);
    expect(odd.body.name).toBe('odd \ufffd name');
    expect((await api.delete(`/api-tokens/${odd.body.id}`)).status).toBe(204);
  });

  it('refuses a member (role member) and a phone-scoped token: 403 on every token route', async () => {
    for (const [method, path, body] of [
      ['GET', '/api-tokens'],
      ['POST', '/api-tokens/create', { name: 'mine' }],
      ['DELETE', `/api-tokens/${w.crm.id}`],
    ] as const) {
      const asMember = await member.call(method, path, body);
      expect({ path, status: asMember.status }).toEqual({ path, status: 403 });
      expectEnvelope(asMember.body, 'FORBIDDEN_ERROR', 403);
      const asScoped = await w.scoped.client[method === 'GET' ? 'get' : method === 'POST' ? 'post' : 'delete'](
        path,
        ...(method === 'POST' ? [body] : []),
      );
      expect({ path, status: asScoped.status }).toEqual({ path, status: 403 });
    }
    expect((await stack.prisma.apiToken.findUniqueOrThrow({ where: { id: w.crm.id } })).revoked_at).toBeNull();
  });

  it('keeps organizations apart: another organization lists none of these and cannot revoke them (404)', async () => {
    const theirs = await other.get('/api-tokens');
    expect(theirs.status).toBe(200);
    expect(theirs.body.tokens.map((t: any) => t.id)).not.toContain(w.crm.id);
    const res = await other.delete(`/api-tokens/${w.crm.id}`);
    expect(res.status).toBe(404);
    expectEnvelope(res.body, 'NOT_FOUND_ERROR', 404);
    expect((await api.delete('/api-tokens/6f1c1b1e-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await client(stack.baseUrl, w.crm.token).get('/phones/all')).status).toBe(200);
  });

  it('revokes: the token is 401 at its very next request (it was cached), listed with revoked_at; again changes nothing', async () => {
    const withIt = client(stack.baseUrl, w.crm.token);
    expect((await withIt.get('/phones/all')).status).toBe(200);
    expect((await admin.call('DELETE', `/api-tokens/${w.crm.id}`)).status).toBe(204);
    const refused = await withIt.get('/phones/all');
    expect(refused.status).toBe(401);
    expectEnvelope(refused.body, 'UNAUTHORIZED_ERROR', 401);
    const listed = (await api.get('/api-tokens')).body.tokens.find((t: any) => t.id === w.crm.id);
    expect(listed.revoked_at).not.toBeNull();
    expect((await admin.call('DELETE', `/api-tokens/${w.crm.id}`)).status).toBe(204);
    expect((await api.get('/api-tokens')).body.tokens.find((t: any) => t.id === w.crm.id).revoked_at).toBe(listed.revoked_at);
  });

  it('records who created and revoked each token in the audit trail, once', async () => {
    const entries = (await api.get('/members/audit?limit=500')).body.entries.filter((e: any) => e.action.startsWith('token.'));
    const crm = entries.filter((e: any) => e.target === w.crm.id).map((e: any) => [e.action, e.actor_type, e.actor_email]);
    expect(crm.sort()).toEqual([
      ['token.created', 'member', 'ada@example.com'],
      ['token.revoked', 'member', 'ada@example.com'],
    ]);
    const scoped = entries.find((e: any) => e.target === w.scoped.id);
    expect(scoped).toMatchObject({
      action: 'token.created',
      actor_type: 'token',
      details: { name: 'one phone', phone_scope: [w.p1.phone_id] },
    });
    expect(JSON.stringify(entries)).not.toContain(w.crm.token);
  });
});
