import { ChatViewSchema, MessageSchema } from '@mapi/contracts';
import { createChat, createMessages, createOrg, createPhone, createToken, randomDigits } from '@mapi/testing';
import { callApi, expectEnvelope } from './support/http';
import { startStack, type Stack } from './support/stack';

/** GET /chats, GET /chats/{chat_id}, GET /chats/messages, POST /chats/{chat_id}/read end to end (issue 16, item 1). */
describe('chats routes', () => {
  let stack: Stack;
  const w: Record<string, any> = {};
  const at = (m: number) => new Date(Date.UTC(2026, 0, 1, 10, m));
  const get = (token: string, path: string, headers: Record<string, string> = {}) =>
    callApi(stack.baseUrl, 'GET', path, token, undefined, headers);
  const read = (token: string, chat: string, headers: Record<string, string> = {}) =>
    callApi(stack.baseUrl, 'POST', `/chats/${encodeURIComponent(chat)}/read`, token, undefined, headers);
  const unread = async (orgId: string, chatId: string) =>
    (await stack.prisma.chat.findMany({ where: { org_id: orgId, chat_id: chatId }, orderBy: { phone_id: 'asc' } })).map(
      (c) => c.unread_count,
    );

  beforeAll(async () => {
    stack = await startStack({}, { services: ['phones'] }); // phones answers x-phone lookups (phones.v1.directory)
    const p = stack.prisma;
    w.orgA = await createOrg(p);
    w.orgB = await createOrg(p);
    w.p1 = await createPhone(p, w.orgA.id);
    w.p2 = await createPhone(p, w.orgA.id);
    w.q1 = await createPhone(p, w.orgB.id);
    w.digits = randomDigits();
    w.shared = `${w.digits}@c.us`; // on p1 and p2; p2's message is the newest
    w.solo = `${randomDigits()}@c.us`; // p1 only
    w.group = `1203630${randomDigits(11)}@g.us`; // p1 only
    w.theirs = `${randomDigits()}@c.us`; // organization B only
    await createMessages(p, w.orgA, w.p1, [
      { chatId: w.shared, timestamp: at(1) },
      { chatId: w.solo, timestamp: at(5) },
      { chatId: w.group, timestamp: at(3) },
    ]);
    await createMessages(p, w.orgA, w.p2, [{ chatId: w.shared, timestamp: at(7), body: 'newest of A' }]);
    await createMessages(p, w.orgB, w.q1, [
      { chatId: w.theirs, timestamp: at(9) },
      { chatId: w.shared, timestamp: at(8) },
    ]);
    await createChat(p, w.orgA, w.p1, { chatId: w.shared, unread: 2 });
    await createChat(p, w.orgA, w.p2, { chatId: w.shared, unread: 1 });
    await createChat(p, w.orgA, w.p1, { chatId: w.solo, unread: 3 });
    await createChat(p, w.orgA, w.p1, { chatId: w.group, chatName: 'Team' });
    await createChat(p, w.orgB, w.q1, { chatId: w.theirs, unread: 4 });
    await createChat(p, w.orgB, w.q1, { chatId: w.shared, unread: 6 });
    await p.groupParticipant.createMany({
      data: [w.p1.org_phone, '4470000000@c.us'].map((c, i) => ({
        org_id: w.orgA.id,
        phone_id: w.p1.phone_id,
        chat_id: w.group,
        contact_id: c,
        is_admin: i === 0,
      })),
    });
    w.tA = (await createToken(p, w.orgA.id)).token;
    w.tA1 = (await createToken(p, w.orgA.id, { phoneIds: [w.p1.phone_id] })).token;
    w.tB = (await createToken(p, w.orgB.id)).token;
  }, 120_000);

  afterAll(() => stack?.stop());

  describe('GET /chats', () => {
    it('lists each chat id of the organization once, most recently active first, as ChatType objects', async () => {
      const res = await get(w.tA, '/chats');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ from: 1, to: 3, count: 3 });
      expect(res.body.chats.map((c: any) => c.chat_id)).toEqual([w.shared, w.solo, w.group]);
      for (const c of res.body.chats) {
        expect(ChatViewSchema.safeParse(c).success).toBe(true);
        expect(Object.keys(c).sort()).toEqual(Object.keys(ChatViewSchema.shape).sort());
        expect(c.org_id).toBe(w.orgA.id);
      }
      const [shared, , group] = res.body.chats;
      expect(shared).toMatchObject({
        chat_type: 'user',
        phone_id: w.p2.phone_id,
        org_phone: w.p2.org_phone,
        active_phone: w.p2.org_phone,
        message_unread_count: 2,
        members: null,
      });
      expect(shared.chat_org_phones.sort()).toEqual([w.p1.org_phone, w.p2.org_phone].sort());
      expect(shared.unread_count).toEqual({ [w.p1.org_phone]: 2, [w.p2.org_phone]: 1 });
      expect(shared.latest_message.body).toBe('newest of A');
      expect(MessageSchema.safeParse(shared.latest_message).success).toBe(true);
      expect(shared.latest_message_timestamp).toBe(at(7).getTime());
      expect(shared.latest_message_timestamp_map).toEqual({ [w.p1.org_phone]: at(1).getTime(), [w.p2.org_phone]: at(7).getTime() });
      expect(group).toMatchObject({ chat_type: 'group', is_group: true, chat_name: 'Team', member_count: 2 });
      expect(group.members[w.p1.org_phone]).toMatchObject({ is_admin: true, is_me: true, contact_id: w.p1.org_phone });
      expect(res.headers.get('x-ratelimit-limit')).toBe('100');
      expect(res.headers.get('x-service-org-id')).toBe(w.orgA.id);
    });

    it("narrows to the x-phone phone and to a scoped token's phones", async () => {
      const byPhone = await get(w.tA, '/chats', { 'x-phone': w.p2.phone_id });
      expect(byPhone.body.chats.map((c: any) => c.chat_id)).toEqual([w.shared]);
      expect(byPhone.headers.get('x-service-phone-id')).toBe(w.p2.phone_id);
      const scoped = await get(w.tA1, '/chats');
      expect(scoped.body.chats.map((c: any) => c.chat_id)).toEqual([w.solo, w.group, w.shared]);
      expect(scoped.body.chats[2]).toMatchObject({ phone_id: w.p1.phone_id, chat_org_phones: [w.p1.org_phone], message_unread_count: 2 });
    });

    it('filters by chat_type and time, and a label no chat carries matches nothing', async () => {
      expect((await get(w.tA, '/chats?chat_type=group')).body.chats.map((c: any) => c.chat_id)).toEqual([w.group]);
      const timed = await get(
        w.tA,
        `/chats?start_time=${encodeURIComponent(at(3).toISOString())}&end_time=${encodeURIComponent(at(5).toISOString())}`,
      );
      expect(timed.body.chats.map((c: any) => c.chat_id)).toEqual([w.solo, w.group]);
      expect((await get(w.tA, '/chats?start_time=2026-01-02')).body).toEqual({ from: 0, to: 0, count: 0, chats: [] });
      expect((await get(w.tA, '/chats?label=vip')).body).toEqual({ from: 0, to: 0, count: 0, chats: [] });
    });

    it('pages with offset and limit, as GET messages does', async () => {
      expect((await get(w.tA, '/chats?offset=1&limit=1')).body).toMatchObject({ from: 2, to: 2, count: 1, chats: [{ chat_id: w.solo }] });
      expect((await get(w.tA, '/chats?offset=3')).body).toEqual({ from: 3, to: 3, count: 0, chats: [] });
      expect((await get(w.tA, '/chats?limit=2000')).status).toBe(200);
    });

    it("never shows another organization's chats or copies", async () => {
      const res = await get(w.tB, '/chats');
      expect(res.body.chats.map((c: any) => c.chat_id)).toEqual([w.theirs, w.shared]);
      expect(res.body.chats[1]).toMatchObject({ org_id: w.orgB.id, chat_org_phones: [w.q1.org_phone], message_unread_count: 6 });
    });
  });

  describe('GET /chats/{chat_id}', () => {
    it('answers the chat as GET /chats lists it; digits and digits@c.us are the same chat', async () => {
      const list = (await get(w.tA, '/chats')).body.chats[0];
      const one = await get(w.tA, `/chats/${w.digits}`);
      expect(one.status).toBe(200);
      expect(one.body).toEqual(list);
      expect((await get(w.tA, `/chats/${encodeURIComponent(w.group)}`)).body.members).not.toBeNull();
    });

    it("gives the same 404 for another organization's chat, a missing one, and one outside the phones in reach", async () => {
      for (const [token, chat, headers] of [
        [w.tA, w.theirs, {}],
        [w.tA, `${randomDigits()}@c.us`, {}],
        [w.tA, w.solo, { 'x-phone': w.p2.phone_id }],
      ] as const) {
        const res = await get(token, `/chats/${encodeURIComponent(chat)}`, headers);
        expect(res.status).toBe(404);
        expectEnvelope(res.body, 'NOT_FOUND_ERROR', 404);
        expect(res.body.message).toBe('Chat not found');
      }
    });
  });

  describe('POST /chats/{chat_id}/read', () => {
    it('sets the unread count to 0 on the x-phone phone only, or on every copy in reach; 200 with no content', async () => {
      const one = await read(w.tA, w.shared, { 'x-phone': w.p1.phone_id });
      expect(one.status).toBe(200);
      expect(one.body).toBe('');
      expect(one.headers.get('x-service-phone-id')).toBe(w.p1.phone_id);
      const ids = [w.p1.phone_id, w.p2.phone_id].sort();
      const byPhone = async () =>
        Object.fromEntries(
          (await stack.prisma.chat.findMany({ where: { org_id: w.orgA.id, chat_id: w.shared } })).map((c) => [c.phone_id, c.unread_count]),
        );
      expect(await byPhone()).toEqual({ [w.p1.phone_id]: 0, [w.p2.phone_id]: 1 });
      expect((await read(w.tA, w.digits)).status).toBe(200);
      expect(Object.keys(await byPhone()).sort()).toEqual(ids);
      expect(Object.values(await byPhone())).toEqual([0, 0]);
      expect((await get(w.tA, `/chats/${w.digits}`)).body.message_unread_count).toBe(0);
    });

    it('changes nothing of another organization, answering as for a missing chat', async () => {
      const before = await unread(w.orgB.id, w.theirs);
      const res = await read(w.tA, w.theirs);
      expect(res.status).toBe(404);
      expectEnvelope(res.body, 'NOT_FOUND_ERROR', 404);
      expect(res.body.message).toBe('Chat not found');
      expect(await unread(w.orgB.id, w.theirs)).toEqual(before);
      expect(before).toEqual([4]);
      expect((await read(w.tA, `${randomDigits()}@c.us`)).body).toEqual(res.body);
    });
  });

  describe('GET /chats/messages', () => {
    it("lists every chat's messages within reach, newest first, each in the shape of spec 2.1", async () => {
      const res = await get(w.tA, '/chats/messages');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ from: 1, to: 4, count: 4 });
      expect(res.body.messages.map((m: any) => Date.parse(m.timestamp))).toEqual([7, 5, 3, 1].map((m) => at(m).getTime()));
      for (const m of res.body.messages) {
        expect(MessageSchema.safeParse(m).success).toBe(true);
        expect(m.org_id).toBe(w.orgA.id);
      }
    });

    it("narrows to x-phone, the token's phones and the time range; pages", async () => {
      expect((await get(w.tA, '/chats/messages', { 'x-phone': w.p2.org_phone.replace('@c.us', '') })).body.count).toBe(1);
      expect((await get(w.tA1, '/chats/messages')).body.count).toBe(3);
      const timed = await get(
        w.tA,
        `/chats/messages?start_time=${encodeURIComponent(at(2).toISOString())}&end_time=${encodeURIComponent(at(5).toISOString())}`,
      );
      expect(timed.body.messages.map((m: any) => Date.parse(m.timestamp))).toEqual([at(5).getTime(), at(3).getTime()]);
      expect((await get(w.tA, '/chats/messages?offset=1&limit=2')).body).toMatchObject({ from: 2, to: 3, count: 2 });
      expect((await get(w.tA, '/chats/messages?offset=10')).body).toEqual({ from: 10, to: 10, count: 0, messages: [] });
      const theirs = await get(w.tB, '/chats/messages');
      expect(theirs.body.messages.every((m: any) => m.org_id === w.orgB.id)).toBe(true);
      expect(theirs.body.count).toBe(2);
    });
  });

  describe('refuses', () => {
    const routes = ['/chats', '/chats/messages'];

    it.each([
      ['limit=2001', 'limit', 2001, /less than or equal to 2000/],
      ['limit=abc', 'limit', 'abc', /number/],
      ['limit=0', 'limit', 0, /at least 1/],
      ['limit=1.5', 'limit', 1.5, /whole number/],
      ['offset=-1', 'offset', -1, /at least 0/],
      ['offset=', 'offset', '', /number/],
      ['start_time=yesterday', 'start_time', 'yesterday', /start_time must be a date/],
      ['end_time=2025-04-31', 'end_time', '2025-04-31', /end_time must be a date/],
      ['start_time=2026-01-02&end_time=2026-01-01', 'end_time', '2026-01-01', /not be before/],
    ])('%s with 422 whose fields.%s holds message and value, on both listings', async (qs, field, value, text) => {
      for (const route of routes) {
        const res = await get(w.tA, `${route}?${qs}`);
        expect(res.status).toBe(422);
        expectEnvelope(res.body, 'VALIDATION_ERROR', 422);
        expect(res.body.fields[field].value).toEqual(value);
        expect(res.body.fields[field].message).toMatch(text);
        expect(res.headers.get('x-ratelimit-limit')).toBe('100');
      }
    });

    it('a chat_type other than user, group or business, and an empty label, with 422', async () => {
      const type = await get(w.tA, '/chats?chat_type=channel');
      expect(type.status).toBe(422);
      expect(type.body.fields.chat_type).toEqual({ message: expect.stringMatching(/user, group, business/), value: 'channel' });
      expect((await get(w.tA, '/chats?label=')).body.fields.label).toBeDefined();
    });

    it('a chat id of neither form with 422 on chat_id (get and read)', async () => {
      for (const res of [await get(w.tA, '/chats/not-a-chat'), await read(w.tA, 'not-a-chat')]) {
        expect(res.status).toBe(422);
        expect(res.body.fields.chat_id).toEqual({ message: expect.stringMatching(/chat_id/), value: 'not-a-chat' });
      }
    });

    it("an x-phone outside the token's scope or of another organization with 401, on every route, changing nothing", async () => {
      const before = await unread(w.orgA.id, w.solo);
      for (const [token, phone] of [
        [w.tA1, w.p2.phone_id],
        [w.tA, w.q1.phone_id],
      ]) {
        for (const res of [
          await get(token, '/chats', { 'x-phone': phone }),
          await get(token, '/chats/messages', { 'x-phone': phone }),
          await get(token, `/chats/${encodeURIComponent(w.solo)}`, { 'x-phone': phone }),
          await read(token, w.solo, { 'x-phone': phone }),
        ]) {
          expect(res.status).toBe(401);
          expectEnvelope(res.body, 'UNAUTHORIZED_ERROR', 401);
        }
      }
      expect(await unread(w.orgA.id, w.solo)).toEqual(before);
    });

    it('a malformed x-phone with 422 and no token with 401', async () => {
      const bad = await get(w.tA, '/chats', { 'x-phone': '+44 7700' });
      expect(bad.status).toBe(422);
      expect(bad.body.fields['x-phone']).toEqual({ message: expect.any(String), value: '+44 7700' });
      const anon = await fetch(`${stack.baseUrl}/v1/chats`);
      expect(anon.status).toBe(401);
    });
  });

  describe('GET /reactions', () => {
    const react = (org: any, phone: any, chatId: string, sender: string, reaction: string, minute: number, unique = randomDigits(6)) => ({
      org_id: org.id,
      phone_id: phone.phone_id,
      chat_id: chatId,
      message_id: `false_${chatId}_${unique}`,
      sender_phone: sender,
      reaction_id: `R${unique}`,
      reaction,
      reacted_at: at(minute),
    });
    beforeAll(async () => {
      w.rOld = react(w.orgA, w.p1, w.solo, '4471111111@c.us', '👍', 10);
      w.rNew = react(w.orgA, w.p2, w.shared, '4472222222@c.us', '❤️', 20);
      w.rBack = react(w.orgA, w.p1, w.shared, '4473333333@c.us', '', 30); // taken back
      w.rTheirs = react(w.orgB, w.q1, w.shared, '4474444444@c.us', '😂', 40);
      await stack.prisma.messageReaction.createMany({ data: [w.rOld, w.rNew, w.rBack, w.rTheirs] });
    });

    it("lists the organization's standing reactions newest first, as ReactionType objects", async () => {
      const res = await get(w.tA, '/reactions');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ from: 1, to: 2, count: 2, start_time: null, end_time: null });
      expect(res.body.reactions.map((r: any) => r.reaction_id)).toEqual([w.rNew.reaction_id, w.rOld.reaction_id]);
      expect(res.body.reactions[0]).toMatchObject({
        org_id: w.orgA.id,
        chat_id: w.shared,
        message_id: w.rNew.message_id,
        sender_id: '4472222222@c.us',
        reaction: '❤️',
        org_phone: w.p2.org_phone,
      });
      expect(res.body.reactions[0].timestamp).toBe(at(20).toISOString());
    });

    it("narrows by chat, message, time, x-phone and the token's phones; pages like GET messages", async () => {
      const ids = async (path: string, token = w.tA, headers: Record<string, string> = {}) =>
        (await get(token, path, headers)).body.reactions.map((r: any) => r.reaction_id);
      expect(await ids(`/reactions?chat_id=${w.digits}`)).toEqual([w.rNew.reaction_id]);
      expect(await ids(`/reactions?message_id=${encodeURIComponent(w.rOld.message_id)}`)).toEqual([w.rOld.reaction_id]);
      expect(await ids(`/reactions?start_time=${encodeURIComponent(at(15).toISOString())}`)).toEqual([w.rNew.reaction_id]);
      expect(await ids(`/reactions?end_time=${encodeURIComponent(at(15).toISOString())}`)).toEqual([w.rOld.reaction_id]);
      expect(await ids('/reactions', w.tA, { 'x-phone': w.p2.phone_id })).toEqual([w.rNew.reaction_id]);
      expect(await ids('/reactions', w.tA1)).toEqual([w.rOld.reaction_id]);
      const second = await get(w.tA, '/reactions?offset=1&limit=1');
      expect(second.body).toMatchObject({ from: 2, to: 2, count: 1 });
      expect(second.body.reactions.map((r: any) => r.reaction_id)).toEqual([w.rOld.reaction_id]);
    });

    it("never shows another organization's reactions, and refuses a phone outside the token's scope", async () => {
      expect((await get(w.tB, '/reactions')).body.reactions.map((r: any) => r.reaction_id)).toEqual([w.rTheirs.reaction_id]);
      expect((await get(w.tB, `/reactions?message_id=${encodeURIComponent(w.rNew.message_id)}`)).body.reactions).toEqual([]);
      const outside = await get(w.tA1, '/reactions', { 'x-phone': w.p2.phone_id });
      expect(outside.status).toBe(401);
      expectEnvelope(outside.body, 'UNAUTHORIZED_ERROR', 401);
    });

    it.each([
      ['limit above 2000', '?limit=2001', 'limit'],
      ['a negative offset', '?offset=-1', 'offset'],
      ['an impossible date', '?start_time=2025-04-31', 'start_time'],
      ['end before start', '?start_time=2026-01-02&end_time=2026-01-01', 'end_time'],
      ['an empty chat_id', '?chat_id=', 'chat_id'],
    ])('answers 422 for %s', async (_what, query, field) => {
      const res = await get(w.tA, `/reactions${query}`);
      expect(res.status).toBe(422);
      expectEnvelope(res.body, 'VALIDATION_ERROR', 422);
      expect(JSON.stringify(res.body.fields)).toContain(field);
    });
  });
});
