import { createOrg, createToken, randomDigits } from '@mapi/testing';
import { client, until } from './support/http';
import { startStack, type Stack } from './support/stack';

type Api = ReturnType<typeof client>;

/**
 * Group lifecycle (POST /chats/create, /invite, /settings, /accept-invite, /leave) and group
 * notifications (GET /chats/notifications, GET /chats/{chat_id}/notifications), through sandbox
 * phones and started services.
 */
describe('group lifecycle and group notifications', () => {
  let stack: Stack;
  let api: Api;
  let other: Api;
  let scoped: Api;
  const w: Record<string, any> = {};
  const c = (d: string) => `${d}@c.us`;
  const notes = (a: Api, path: string, phone?: string) => a.get(path, phone ? { 'x-phone': phone } : {});
  const types = (r: any) => r.body.notifictions.map((n: any) => n.type);

  async function connectedPhone(a: Api): Promise<{ id: string; number: string }> {
    const id = (await a.post('/phones/create')).body.phone_id;
    await until(
      () => a.get('/phones', { 'x-phone': id }),
      (r) => r.body?.wa_state === 'QR',
      10_000,
      'QR',
    );
    const number = randomDigits();
    await a.post('/sandbox/phones/scan', { number }, { 'x-phone': id });
    await until(
      () => a.get('/phones', { 'x-phone': id }),
      (r) => r.body?.wa_state === 'CONNECTED',
      10_000,
      'connected',
    );
    return { id, number };
  }

  beforeAll(async () => {
    stack = await startStack({ SESSION_SCAN_MS: '200' }, { services: ['phones', 'groups'] });
    const org = await createOrg(stack.prisma);
    w.org = org;
    api = client(stack.baseUrl, (await createToken(stack.prisma, org.id)).token);
    const otherOrg = await createOrg(stack.prisma);
    other = client(stack.baseUrl, (await createToken(stack.prisma, otherOrg.id)).token);
    w.p1 = await connectedPhone(api);
    w.p2 = await connectedPhone(api);
    w.px = await connectedPhone(other);
    scoped = client(stack.baseUrl, (await createToken(stack.prisma, org.id, { phoneIds: [w.p2.id] })).token);
    [w.a, w.b] = [randomDigits(), randomDigits()];
  }, 120_000);

  afterAll(() => stack?.stop(), 60_000);

  describe('POST /chats/create', () => {
    it("creates the group through x-phone and answers it as GET /chats/{chat_id} does; every member phone gets the network's notifications", async () => {
      const res = await api.post(
        '/chats/create',
        { group_name: 'Launch', participants: [w.a, w.p2.number], options: { description: 'Go' } },
        { 'x-phone': w.p1.id },
      );
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        chat_id: expect.stringMatching(/@g\.us$/),
        chat_name: 'Launch',
        chat_type: 'group',
        phone_id: w.p1.id,
        org_phone: c(w.p1.number),
      });
      expect(res.body).toMatchObject({
        group_description: 'Go',
        messages_admins_only: false,
        info_admins_only: false,
        add_members_admins_only: false,
      });
      expect(Object.keys(res.body.members).sort()).toEqual([c(w.a), c(w.p1.number), c(w.p2.number)].sort());
      expect(res.body).toEqual((await api.get(`/chats/${res.body.chat_id}`, { 'x-phone': w.p1.id })).body);
      w.group = res.body.chat_id;

      const mine = await until(
        () => notes(api, `/chats/${w.group}/notifications`, w.p1.id),
        (r) => r.body.count === 2,
        10_000,
        'notifications',
      );
      expect(mine.body).toMatchObject({ from: 1, to: 2, count: 2 });
      expect(mine.body.notifictions[0]).toEqual({
        notification_id: expect.any(String),
        chat_id: w.group,
        org_id: w.org.id,
        org_phone: c(w.p1.number),
        type: 'add',
        author: c(w.p1.number),
        recipientids: [c(w.a), c(w.p2.number)],
        body: null,
        id: null,
        metadata: null,
        unique_id: expect.any(String),
        timestamp: expect.any(String),
      });
      expect(mine.body.notifictions[1]).toMatchObject({ type: 'create', body: 'Launch' });
      // The second phone of the organization is a member: it has its own copies, with the same network ids.
      const theirs = await until(
        () => notes(api, `/chats/${w.group}/notifications`, w.p2.id),
        (r) => r.body.count === 2,
        10_000,
        'p2 copies',
      );
      expect(theirs.body.notifictions.map((n: any) => n.unique_id)).toEqual(mine.body.notifictions.map((n: any) => n.unique_id));
      const events = await stack.prisma.outboxEvent.findMany({ where: { org_id: w.org.id, type: 'chat.notification.created' } });
      expect(events.filter((e) => (e.payload as any).chat_id === w.group)).toHaveLength(4);
    });

    it('without x-phone creates through the first-created connected phone within reach', async () => {
      const res = await api.post('/chats/create', { group_name: 'Chosen', participants: [w.a] });
      expect(res.status).toBe(200);
      expect(res.body.phone_id).toBe(w.p1.id);
      const viaScope = await scoped.post('/chats/create', { group_name: 'Scoped', participants: [w.a] });
      expect(viaScope.body.phone_id).toBe(w.p2.id);
    });

    it.each([
      ['no body', undefined, 'body'],
      ['an empty group_name', { group_name: ' ', participants: ['1234567'] }, 'body.group_name'],
      ['no participants', { group_name: 'X', participants: [] }, 'body.participants'],
      ['a participant with symbols', { group_name: 'X', participants: ['+44 7700'] }, 'body.participants.0'],
      ['an image', { group_name: 'X', participants: ['1234567'], options: { image: 'https://example.com/a.png' } }, 'body.options.image'],
      [
        'a non-boolean option',
        { group_name: 'X', participants: ['1234567'], options: { messagesAdminsOnly: 'yes' } },
        'body.options.messagesAdminsOnly',
      ],
    ])('answers 422 for %s', async (_n, body, field) => {
      const res = await api.post('/chats/create', body, { 'x-phone': w.p1.id });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', status: 422 });
      expect(res.body.fields[field]).toBeDefined();
    });
  });

  describe('POST /chats/{chat_id}/invite and POST /chats/accept-invite', () => {
    it('makes a new link each time (the earlier stops working); another phone joins with the code', async () => {
      w.club = (await api.post('/chats/create', { group_name: 'Club', participants: [w.a] }, { 'x-phone': w.p1.id })).body.chat_id;
      const first = await api.post(`/chats/${w.club}/invite`, undefined, { 'x-phone': w.p1.id });
      expect(first.status).toBe(200);
      expect(first.body).toEqual({ invite_link: expect.stringMatching(/^https:\/\/chat\.whatsapp\.com\/[A-Za-z0-9_-]+$/) });
      const second = await api.post(`/chats/${w.club}/invite`); // without x-phone: an admin phone of the group
      expect(second.body.invite_link).not.toBe(first.body.invite_link);
      const code = (link: string) => link.split('/').pop() as string;

      const stale = await api.post('/chats/accept-invite', { invite_code: code(first.body.invite_link) }, { 'x-phone': w.p2.id });
      expect(stale.status).toBe(400);
      expect(stale.body).toMatchObject({ code: 'ERROR', message: expect.stringMatching(/invite code/) });
      const joined = await api.post('/chats/accept-invite', { invite_code: code(second.body.invite_link) }, { 'x-phone': w.p2.id });
      expect(joined.status).toBe(200);
      expect(joined.body).toMatchObject({ chat_id: w.club, chat_name: 'Club', phone_id: w.p2.id });
      const seen = await until(
        () => notes(api, `/chats/${w.club}/notifications`, w.p1.id),
        (r) => types(r).includes('invite'),
        10_000,
        'join notification',
      );
      expect(seen.body.notifictions[0]).toMatchObject({ type: 'invite', author: c(w.p2.number), recipientids: [c(w.p2.number)] });
    });

    it('answers 400 ERROR when the phone is not an admin of the group', async () => {
      const res = await api.post(`/chats/${w.club}/invite`, undefined, { 'x-phone': w.p2.id });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'ERROR', message: expect.stringMatching(/not an admin/) });
    });

    it.each([
      ['invite: a chat id that is not a group', () => api.post(`/chats/${w.a}/invite`, undefined, { 'x-phone': w.p1.id }), 'chat_id'],
      ['accept-invite: no body', () => api.post('/chats/accept-invite', undefined, { 'x-phone': w.p1.id }), 'body'],
      [
        'accept-invite: an empty code',
        () => api.post('/chats/accept-invite', { invite_code: '' }, { 'x-phone': w.p1.id }),
        'body.invite_code',
      ],
      [
        'accept-invite: a code with symbols',
        () => api.post('/chats/accept-invite', { invite_code: 'no such code!' }, { 'x-phone': w.p1.id }),
        'body.invite_code',
      ],
    ])('answers 422 for %s', async (_n, call, field) => {
      const res = await call();
      expect(res.status).toBe(422);
      expect(res.body.fields[field]).toBeDefined();
    });
  });

  describe('POST /chats/{chat_id}/settings', () => {
    it('renames the group and changes its settings; the answer has the new name and the changes are notifications', async () => {
      const res = await api.post(
        `/chats/${w.group}/settings`,
        { name: 'Launch 2', description: 'Gone', messagesAdminsOnly: true },
        { 'x-phone': w.p1.id },
      );
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        chat_id: w.group,
        chat_name: 'Launch 2',
        chat_type: 'group',
        group_description: 'Gone',
        messages_admins_only: true,
        info_admins_only: false,
      });
      const seen = await until(
        () => notes(api, `/chats/${w.group}/notifications`, w.p2.id),
        (r) => r.body.count === 5,
        10_000,
        'settings notifications',
      );
      expect(types(seen).slice(0, 3).sort()).toEqual(['announce', 'description', 'subject']);
      expect(seen.body.notifictions.find((n: any) => n.type === 'subject')).toMatchObject({ body: 'Launch 2', author: c(w.p1.number) });
    });

    it('stores text as the network can (a lone surrogate becomes U+FFFD) and answers what was stored, without waiting out its time', async () => {
      const started = Date.now();
      const res = await api.post(`/chats/${w.club}/settings`, { description: 'lone \ud800 half' }, { 'x-phone': w.p1.id });
      expect(res.status).toBe(200);
      expect(res.body.group_description).toBe('lone \ufffd half');
      expect(Date.now() - started).toBeLessThan(3_000);
    });

    it.each([
      ['a chat id that is not a group', (g: string) => `/chats/${g.replace('@g.us', '')}/settings`, { name: 'X' }, 'chat_id'],
      ['nothing to change', (g: string) => `/chats/${g}/settings`, {}, 'body'],
      ['an empty name', (g: string) => `/chats/${g}/settings`, { name: '' }, 'body.name'],
      ['an image', (g: string) => `/chats/${g}/settings`, { image: 'https://example.com/a.png' }, 'body.image'],
      ['a non-boolean setting', (g: string) => `/chats/${g}/settings`, { infoAdminsOnly: 1 }, 'body.infoAdminsOnly'],
    ])('answers 422 for %s', async (_n, path, body, field) => {
      const res = await api.post(path(w.group), body, { 'x-phone': w.p1.id });
      expect(res.status).toBe(422);
      expect(res.body.fields[field]).toBeDefined();
    });
  });

  describe('POST /chats/{chat_id}/leave', () => {
    it('leaves the group (200, no content); the other member phone gets the leave notification', async () => {
      const res = await api.post(`/chats/${w.club}/leave`, undefined, { 'x-phone': w.p2.id });
      expect(res.status).toBe(200);
      expect(res.body).toBeUndefined();
      const seen = await until(
        () => notes(api, `/chats/${w.club}/notifications`, w.p1.id),
        (r) => types(r)[0] === 'leave',
        10_000,
        'leave',
      );
      expect(seen.body.notifictions[0]).toMatchObject({ author: c(w.p2.number), recipientids: [c(w.p2.number)] });
      const again = await api.post(`/chats/${w.club}/leave`, undefined, { 'x-phone': w.p2.id });
      expect(again.status).toBe(400);
      expect(again.body.message).toMatch(/not a member/);
    });

    it('answers 422 for a chat id that is not a group', async () => {
      const res = await api.post(`/chats/${w.a}@c.us/leave`, undefined, { 'x-phone': w.p1.id });
      expect(res.status).toBe(422);
      expect(res.body.fields.chat_id).toBeDefined();
    });
  });

  describe('group notifications', () => {
    it('another member joining, being promoted, renaming and leaving (sandbox) are notifications, one each, newest first across chats', async () => {
      const before = await stack.prisma.outboxEvent.count({
        where: { org_id: w.org.id, type: 'chat.notification.created', phone_id: w.p1.id },
      });
      const listed = (await notes(api, '/chats/notifications', w.p1.id)).body.count;
      const change = (body: object) => api.post('/sandbox/groups/change', { chat_id: w.group, ...body }, { 'x-phone': w.p1.id });
      expect((await change({ action: 'join', number: w.b })).status).toBe(200);
      expect((await change({ action: 'promote', number: w.b, by: w.p1.number })).status).toBe(200);
      expect((await change({ action: 'subject', number: w.b, subject: 'Renamed' })).status).toBe(200);
      expect((await change({ action: 'leave', number: w.b })).status).toBe(200);
      const all = await until(
        () => notes(api, '/chats/notifications', w.p1.id),
        (r) => r.body.count === listed + 4,
        10_000,
        'sandbox notifications',
      );
      expect(types(all).slice(0, 4)).toEqual(['leave', 'subject', 'promote', 'invite']);
      expect(all.body.notifictions[2]).toMatchObject({ chat_id: w.group, author: c(w.p1.number), recipientids: [c(w.b)] });
      const times = all.body.notifictions.map((n: any) => n.timestamp);
      expect([...times].sort().reverse()).toEqual(times);
      const after = await stack.prisma.outboxEvent.count({
        where: { org_id: w.org.id, type: 'chat.notification.created', phone_id: w.p1.id },
      });
      expect(after - before).toBe(4);
      expect((await change({ action: 'leave', number: w.b })).status).toBe(422);
    });

    it("a participant action through the API is one notification and one event per phone (the network's echo), not two", async () => {
      const before = await stack.prisma.outboxEvent.count({
        where: { org_id: w.org.id, type: 'chat.notification.created', phone_id: w.p1.id },
      });
      const listed = (await notes(api, `/chats/${w.group}/notifications`, w.p1.id)).body.count;
      const res = await api.post(`/chats/${w.group}/promote`, { participants: [w.a] }, { 'x-phone': w.p1.id });
      expect(res.body[c(w.a)].is_success).toBe(true);
      const seen = await until(
        () => notes(api, `/chats/${w.group}/notifications`, w.p1.id),
        (r) => r.body.count === listed + 1,
        10_000,
        'promote',
      );
      expect(seen.body.notifictions[0]).toMatchObject({ author: c(w.p1.number), recipientids: [c(w.a)] });
      expect(seen.body.notifictions[0].type).toBe('promote');
      await new Promise((r) => setTimeout(r, 500)); // time for a second event, were there one
      const events = await stack.prisma.outboxEvent.findMany({
        where: { org_id: w.org.id, type: 'chat.notification.created', phone_id: w.p1.id },
      });
      expect(events).toHaveLength(before + 1);
      const echoed = events.filter((e) => (e.payload as any).unique_id === seen.body.notifictions[0].unique_id);
      expect(echoed).toHaveLength(1);
      expect(echoed[0].payload).toMatchObject({
        type: 'promote',
        notification_type: 'group.promote',
        participants: [c(w.a)],
        performed_by: c(w.p1.number),
      });
    });

    it('pages and bounds by time as GET /chats/messages does', async () => {
      const page = await notes(api, '/chats/notifications?offset=1&limit=2', w.p1.id);
      expect(page.body).toMatchObject({ from: 2, to: 3, count: 2 });
      const full = await notes(api, '/chats/notifications', w.p1.id);
      expect(page.body.notifictions).toEqual(full.body.notifictions.slice(1, 3));
      const future = await notes(api, `/chats/notifications?start_time=${Date.now() + 60_000}`, w.p1.id);
      expect(future.body).toEqual({ from: 0, to: 0, count: 0, notifictions: [] });
      const byChat = await notes(api, `/chats/${w.club}/notifications?end_time=2000-01-01`, w.p1.id);
      expect(byChat.body.count).toBe(0);
    });

    it.each([
      ['/chats/notifications?limit=2001', 'limit'],
      ['/chats/notifications?limit=0', 'limit'],
      ['/chats/notifications?offset=-1', 'offset'],
      ['/chats/notifications?start_time=2025-04-31', 'start_time'],
      ['/chats/notifications?start_time=2025-04-25&end_time=2025-04-24', 'end_time'],
      ['/chats/not-a-chat/notifications', 'chat_id'],
      ['/chats/120363@g.us/notifications?limit=abc', 'limit'],
    ])('answers 422 for %s', async (path, field) => {
      const res = await api.get(path);
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR' });
      expect(res.body.fields[field]).toBeDefined();
    });

    it("narrows to the token's phones: a scoped token sees only its phone's copies", async () => {
      const all = await notes(scoped, '/chats/notifications');
      expect(all.body.count).toBeGreaterThan(0);
      expect(new Set(all.body.notifictions.map((n: any) => n.org_phone))).toEqual(new Set([c(w.p2.number)]));
    });
  });

  describe('other organizations and scopes', () => {
    it('another organization reads none of these notifications and changes none of these groups (404, as for a missing group)', async () => {
      expect((await notes(other, '/chats/notifications')).body.notifictions.filter((n: any) => n.chat_id === w.group)).toEqual([]);
      expect((await notes(other, `/chats/${w.group}/notifications`)).body).toEqual({ from: 0, to: 0, count: 0, notifictions: [] });
      for (const h of [{}, { 'x-phone': w.px.id }] as Record<string, string>[]) {
        for (const [path, body] of [
          [`/chats/${w.group}/invite`, undefined],
          [`/chats/${w.group}/settings`, { name: 'Hijacked' }],
          [`/chats/${w.group}/leave`, undefined],
        ] as const) {
          const res = await other.post(path, body, h);
          expect(res.status).toBe(404);
          expect(res.body).toMatchObject({ code: 'NOT_FOUND_ERROR' });
        }
      }
      expect((await api.get(`/chats/${w.group}`, { 'x-phone': w.p1.id })).body.chat_name).toBe('Renamed');
      const missing = await api.post('/chats/120363999999999999@g.us/invite', undefined, { 'x-phone': w.p1.id });
      expect(missing.status).toBe(404);
    });

    it('answers 401 for a phone outside a scoped token', async () => {
      const h = { 'x-phone': w.p1.id };
      for (const res of [
        await scoped.post('/chats/create', { group_name: 'X', participants: [w.a] }, h),
        await scoped.post(`/chats/${w.group}/invite`, undefined, h),
        await scoped.post(`/chats/${w.group}/settings`, { name: 'X' }, h),
        await scoped.post('/chats/accept-invite', { invite_code: 'abc' }, h),
        await scoped.post(`/chats/${w.group}/leave`, undefined, h),
        await scoped.get('/chats/notifications', h),
        await scoped.get(`/chats/${w.group}/notifications`, h),
      ]) {
        expect(res.status).toBe(401);
        expect(res.body).toMatchObject({ code: 'UNAUTHORIZED_ERROR' });
      }
      expect((await api.get(`/chats/${w.group}`, h)).body.chat_name).toBe('Renamed');
    });

    it('answers 400 ERROR while the phone is disconnected', async () => {
      await api.post('/sandbox/phones/state', { state: 'DISCONNECTED' }, { 'x-phone': w.p1.id });
      await until(
        () => api.get('/phones', { 'x-phone': w.p1.id }),
        (r) => r.body?.wa_state === 'DISCONNECTED',
        10_000,
        'disconnected',
      );
      const h = { 'x-phone': w.p1.id };
      for (const res of [
        await api.post('/chats/create', { group_name: 'X', participants: [w.a] }, h),
        await api.post(`/chats/${w.group}/invite`, undefined, h),
        await api.post(`/chats/${w.group}/settings`, { name: 'X' }, h),
        await api.post('/chats/accept-invite', { invite_code: 'abc' }, h),
        await api.post(`/chats/${w.group}/leave`, undefined, h),
      ]) {
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ code: 'ERROR', status: 400 });
      }
      await api.post('/sandbox/phones/state', { state: 'CONNECTED' }, h);
      await until(
        () => api.get('/phones', h),
        (r) => r.body?.wa_state === 'CONNECTED',
        10_000,
        'connected again',
      );
      expect((await api.get(`/chats/${w.group}`, h)).body.chat_name).toBe('Renamed');
    });
  });
});
