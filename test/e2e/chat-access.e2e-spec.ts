import { createChat, createMessages, createOrg, createPhone, createToken, randomDigits } from '@mapi/testing';
import { joinByInvitation, type ConsoleSession } from './support/console-session';
import { client, expect404, expectEnvelope, type Answer } from './support/http';
import { startStack, type Stack } from './support/stack';

/**
 * PATCH /chats/access end to end (issue 18): members checks the emails, chats keeps the overrides
 * (chats.v1.chat.set-access); then a member's labels and those overrides narrowing GET /chats,
 * GET /chats/{chat_id} and messages for the member's console session only. Gateway, chats, phones,
 * members, inbox (labels) as processes; console sessions by invitation.
 */
describe('PATCH /chats/access', () => {
  let stack: Stack;
  let api: ReturnType<typeof client>;
  let other: ReturnType<typeof client>;
  let scoped: ReturnType<typeof client>;
  const w: Record<string, any> = {};
  const PASSWORD = 'correct horse battery';
  const [chatA, chatB, chatC] = [randomDigits(), randomDigits(), randomDigits()].map((d) => `${d}@c.us`);
  const expect422 = (res: Answer, fields: string[]) => {
    expect(res.status).toBe(422);
    expectEnvelope(res.body, 'VALIDATION_ERROR', 422);
    for (const f of fields) expect(Object.keys(res.body.fields)).toContain(f);
  };
  const overrides = async (orgId: string, chatId: string) =>
    (await stack.prisma.chatProperties.findFirst({ where: { org_id: orgId, chat_id: chatId } }))?.override_chat_access ?? null;
  const join = (email: string, body: Record<string, unknown>): Promise<ConsoleSession> =>
    joinByInvitation(stack.baseUrl, api, { emails: [email], ...body }, PASSWORD);

  beforeAll(async () => {
    stack = await startStack({}, { services: ['phones', 'members', 'inbox'] });
    const p = stack.prisma;
    w.org = await createOrg(p);
    w.otherOrg = await createOrg(p);
    [w.p1, w.p2, w.q] = [await createPhone(p, w.org.id), await createPhone(p, w.org.id), await createPhone(p, w.otherOrg.id)];
    const at = (m: number) => new Date(Date.UTC(2026, 1, 1, 9, m));
    for (const [org, phone, chatId, m] of [
      [w.org, w.p1, chatA, 1],
      [w.org, w.p1, chatB, 2],
      [w.org, w.p2, chatC, 3],
      [w.otherOrg, w.q, chatA, 4],
    ] as const) {
      await createMessages(p, org, phone, [{ chatId, timestamp: at(m) }]);
      await createChat(p, org, phone, { chatId });
    }
    api = client(stack.baseUrl, (await createToken(p, w.org.id)).token);
    other = client(stack.baseUrl, (await createToken(p, w.otherOrg.id)).token);
    scoped = client(stack.baseUrl, (await createToken(p, w.org.id, { phoneIds: [w.p1.phone_id] })).token);
    w.amy = await join('amy@example.com', { role: 'member', orgPhones: [w.p1.phone_id] });
    w.ada = await join('ada@example.com', { role: 'admin' });
    w.lea = await join('lea@example.com', { role: 'member', orgPhones: [w.p1.phone_id], labels: ['VIP'] });
    await other.post('/members/invite', { emails: ['zoe@example.com'] });
  }, 120_000);

  afterAll(() => stack?.stop(), 60_000);

  describe('setting overrides', () => {
    it('merges by default, replaces with replace: true, answers 204; GET /chats/{chat_id} shows them', async () => {
      const res = await api.patch('/chats/access', { access: { 'Amy@Example.com': true }, chat_ids: [chatC] });
      expect([res.status, res.body]).toEqual([204, undefined]);
      expect((await api.patch('/chats/access', { access: { 'ada@example.com': false }, chat_ids: [chatC], replace: false })).status).toBe(
        204,
      );
      expect((await api.get(`/chats/${chatC}`)).body.override_chat_access).toEqual({ 'ada@example.com': false, 'amy@example.com': true });
      expect(
        (await api.patch('/chats/access', { access: { 'ada@example.com': true }, chat_ids: [chatB, chatC], replace: true })).status,
      ).toBe(204);
      expect(await overrides(w.org.id, chatC)).toEqual({ 'ada@example.com': true });
      expect(await overrides(w.org.id, chatB)).toEqual({ 'ada@example.com': true });
      expect((await api.patch('/chats/access', { access: {}, chat_ids: [chatB], replace: true })).status).toBe(204);
      expect(await overrides(w.org.id, chatB)).toBeNull();
    });

    it("an admin's console session may set them (with CSRF); a member's is 403; the audit trail has the actor", async () => {
      expect((await w.ada.call('PATCH', '/chats/access', { access: { 'amy@example.com': false }, chat_ids: [chatB] })).status).toBe(204);
      const refused = await w.amy.call('PATCH', '/chats/access', { access: { 'amy@example.com': true }, chat_ids: [chatA] });
      expect(refused.status).toBe(403);
      expectEnvelope(refused.body, 'FORBIDDEN_ERROR', 403);
      const audit = await api.get('/members/audit');
      expect(audit.body.entries.find((e: any) => e.action === 'chat.access_updated' && e.actor_email === 'ada@example.com')).toMatchObject({
        target: chatB,
      });
    });
  });

  describe('refusals (nothing changes)', () => {
    let before: unknown[];
    beforeAll(async () => {
      before = await stack.prisma.chatProperties.findMany({ orderBy: [{ org_id: 'asc' }, { chat_id: 'asc' }] });
    });
    afterAll(async () => {
      expect(await stack.prisma.chatProperties.findMany({ orderBy: [{ org_id: 'asc' }, { chat_id: 'asc' }] })).toEqual(before);
    });

    it("422: an email that is not a member (another organization's too), naming the key", async () => {
      const res = await api.patch('/chats/access', {
        access: { 'amy@example.com': true, 'zoe@example.com': true, 'nobody@example.com': false },
        chat_ids: [chatA],
      });
      expect422(res, ['body.access.zoe@example.com', 'body.access.nobody@example.com']);
      expect(Object.keys(res.body.fields)).not.toContain('body.access.amy@example.com');
    });

    it('422: every malformed body', async () => {
      expect422(await api.patch('/chats/access', { chat_ids: [chatA] }), ['body.access']);
      expect422(await api.patch('/chats/access', { access: ['amy@example.com'], chat_ids: [chatA] }), ['body.access']);
      expect422(await api.patch('/chats/access', { access: { 'amy@example.com': 'yes' }, chat_ids: [chatA] }), [
        'body.access.amy@example.com',
      ]);
      expect422(await api.patch('/chats/access', { access: { 'amy@example.com': true } }), ['body.chat_ids']);
      expect422(await api.patch('/chats/access', { access: { 'amy@example.com': true }, chat_ids: [] }), ['body.chat_ids']);
      expect422(await api.patch('/chats/access', { access: { 'amy@example.com': true }, chat_ids: ['not a chat'] }), ['body.chat_ids.0']);
      expect422(
        await api.patch('/chats/access', {
          access: { 'amy@example.com': true },
          chat_ids: Array.from({ length: 1001 }, (_, i) => `${100000 + i}@c.us`),
        }),
        ['body.chat_ids'],
      );
      expect422(await api.patch('/chats/access', { access: { 'amy@example.com': true }, chat_ids: [chatA], replace: 'yes' }), [
        'body.replace',
      ]);
      expect422(
        await api.patch('/chats/access', {
          access: Object.fromEntries(Array.from({ length: 201 }, (_, i) => [`m${i}@example.com`, true])),
          chat_ids: [chatA],
        }),
        ['body.access'],
      );
      expect422(await api.patch('/chats/access', 'text'), ['body']);
    });

    it("404 all or nothing: another organization's chat, a missing one; another organization's token changes nothing of ours", async () => {
      expect404(await api.patch('/chats/access', { access: { 'amy@example.com': true }, chat_ids: [chatA, `${randomDigits()}@c.us`] }));
      expect404(await other.patch('/chats/access', { access: { 'zoe@example.com': true }, chat_ids: [chatB] }));
      expect422(await other.patch('/chats/access', { access: { 'amy@example.com': true }, chat_ids: [chatA] }), [
        'body.access.amy@example.com',
      ]);
    });

    it('a token scoped to phones: a chat of another phone is 404, x-phone outside its phones 401', async () => {
      expect404(await scoped.patch('/chats/access', { access: { 'amy@example.com': true }, chat_ids: [chatA, chatC] }));
      const outside = await scoped.patch(
        '/chats/access',
        { access: { 'amy@example.com': true }, chat_ids: [chatA] },
        { 'x-phone': w.p2.phone_id },
      );
      expect(outside.status).toBe(401);
      expectEnvelope(outside.body, 'UNAUTHORIZED_ERROR', 401);
    });
  });

  describe("what a member's session sees", () => {
    const ids = (res: Answer) => (res.body.chats as any[]).map((c) => c.chat_id).sort();
    const messageChats = (res: Answer) => [...new Set((res.body.messages as any[]).map((m) => m.chat_id))].sort();

    beforeAll(async () => {
      expect((await api.patch('/chats/labels', { labels: 'VIP', chat_ids: [chatA] })).status).toBe(204);
    });

    it('labels narrow: a member limited to label VIP on phone 1 sees only the VIP chat of phone 1', async () => {
      expect(ids(await w.lea.call('GET', '/chats'))).toEqual([chatA]);
      expect((await w.lea.call('GET', `/chats/${chatA}`)).status).toBe(200);
      expect404(await w.lea.call('GET', `/chats/${chatB}`));
      expect((await w.lea.call('GET', `/chats/${chatB}/messages`)).body).toMatchObject({ count: 0, messages: [] });
      expect(messageChats(await w.lea.call('GET', '/chats/messages'))).toEqual([chatA]);
    });

    it("an override false hides a chat of the member's phones (amy was denied chat B above)", async () => {
      expect(ids(await w.amy.call('GET', '/chats'))).toEqual([chatA]);
      expect404(await w.amy.call('GET', `/chats/${chatB}`));
    });

    it('an override true shows a chat of another phone without the label; false then hides the labelled one', async () => {
      expect((await api.patch('/chats/access', { access: { 'lea@example.com': true }, chat_ids: [chatC] })).status).toBe(204);
      expect(ids(await w.lea.call('GET', '/chats'))).toEqual([chatA, chatC].sort());
      expect((await w.lea.call('GET', `/chats/${chatC}`)).body).toMatchObject({ chat_id: chatC, org_phone: w.p2.org_phone });
      expect((await w.lea.call('GET', `/chats/${chatC}/messages`)).body).toMatchObject({ count: 1 });
      expect((await api.patch('/chats/access', { access: { 'lea@example.com': false }, chat_ids: [chatA] })).status).toBe(204);
      expect(ids(await w.lea.call('GET', '/chats'))).toEqual([chatC]);
      expect404(await w.lea.call('GET', `/chats/${chatA}`));
      expect((await w.lea.call('GET', `/chats/${chatA}/messages`)).body).toMatchObject({ count: 0 });
      expect(messageChats(await w.lea.call('GET', '/chats/messages'))).toEqual([chatC]);
      expect(ids(await w.lea.call('GET', '/chats?label=vip'))).toEqual([]);
    });

    it('owners, admins and API tokens are unaffected: every chat within their phones', async () => {
      expect(ids(await w.ada.call('GET', '/chats'))).toEqual([chatA, chatB, chatC].sort());
      expect(ids(await api.get('/chats'))).toEqual([chatA, chatB, chatC].sort());
      expect(ids(await scoped.get('/chats'))).toEqual([chatA, chatB].sort());
      expect((await scoped.get(`/chats/${chatC}`)).status).toBe(404);
    });

    it("another organization's token and members see none of it; x-phone outside a member's phones is 401", async () => {
      expect(ids(await other.get('/chats'))).toEqual([chatA]);
      expect((await other.get(`/chats/${chatC}`)).status).toBe(404);
      const outside = await w.lea.call('GET', '/chats', undefined, { 'x-phone': w.p2.phone_id });
      expect(outside.status).toBe(401);
    });
  });
});
