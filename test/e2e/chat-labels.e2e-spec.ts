import { ChatViewSchema, CustomPropertySchema, LabelSchema } from '@mapi/contracts';
import { createChat, createMessages, createOrg, createPhone, createToken, randomDigits, registryPayload } from '@mapi/testing';
import { io as connect, type Socket } from 'socket.io-client';
import { client, expect404, expect422, until, type Answer } from './support/http';
import { startStack, type Stack } from './support/stack';

/**
 * Labels and custom properties end to end (issue 17 item 5): the definitions (GET /labels,
 * POST /labels/create, GET|POST|PATCH|DELETE /custom-properties) in the inbox service, the values set
 * through PATCH /chats/labels and PATCH /chats/{chat_id} (inbox → chats.v1.chat.set-properties) and read
 * back by GET /chats (?label=) and GET /chats/{chat_id}; chat.label.updated and
 * chat.custom_properties.updated in the outbox and on realtime. Gateway, chats, phones, inbox as processes.
 */
describe('labels and custom properties', () => {
  let stack: Stack;
  let api: ReturnType<typeof client>;
  let other: ReturnType<typeof client>;
  let scoped: ReturnType<typeof client>;
  const w: Record<string, any> = {};
  const sockets: Socket[] = [];
  const realtime: { type: string; data: any; meta: any }[] = [];
  const [alice, bob, carol] = [randomDigits(), randomDigits(), randomDigits()];
  const [chatA, chatB, chatC] = [`${alice}@c.us`, `${bob}@c.us`, `${carol}@c.us`];
  const events = (type: string) => stack.prisma.outboxEvent.findMany({ where: { org_id: w.org.id, type }, orderBy: { seq: 'asc' } });
  const chatIds = (res: Answer) => res.body.chats.map((c: any) => c.chat_id);

  beforeAll(async () => {
    stack = await startStack({}, { services: ['phones', 'inbox'] });
    const p = stack.prisma;
    w.org = await createOrg(p);
    w.otherOrg = await createOrg(p);
    [w.p1, w.p2, w.q] = [await createPhone(p, w.org.id), await createPhone(p, w.org.id), await createPhone(p, w.otherOrg.id)];
    const at = (m: number) => new Date(Date.UTC(2026, 1, 1, 9, m));
    await createMessages(p, w.org, w.p1, [
      { chatId: chatA, timestamp: at(1) },
      { chatId: chatB, timestamp: at(2) },
    ]);
    await createMessages(p, w.org, w.p2, [{ chatId: chatC, timestamp: at(3) }]);
    await createChat(p, w.org, w.p1, { chatId: chatA });
    await createChat(p, w.org, w.p1, { chatId: chatB });
    await createChat(p, w.org, w.p2, { chatId: chatC });
    await createChat(p, w.otherOrg, w.q, { chatId: chatA });
    const token = (await createToken(p, w.org.id)).token;
    api = client(stack.baseUrl, token);
    other = client(stack.baseUrl, (await createToken(p, w.otherOrg.id)).token);
    scoped = client(stack.baseUrl, (await createToken(p, w.org.id, { phoneIds: [w.p1.phone_id] })).token);
    const s = connect(stack.baseUrl, { transports: ['websocket'], extraHeaders: { Authorization: `Bearer ${token}` } });
    sockets.push(s);
    s.onAny((type, data, meta) => realtime.push({ type, data, meta }));
    await new Promise<void>((resolve, reject) => {
      s.once('connect', () => resolve());
      s.once('connect_error', reject);
    });
  }, 120_000);

  afterAll(async () => {
    sockets.forEach((s) => s.disconnect());
    await stack?.stop();
  }, 60_000);

  describe('definitions', () => {
    it('creates and lists labels; a name again answers the same label; another organization sees none', async () => {
      const res = await api.post('/labels/create', { name: ' VIP ', color: '#FF0000' });
      expect(res.status).toBe(200);
      expect(LabelSchema.safeParse(res.body).success).toBe(true);
      expect(res.body).toMatchObject({ name: 'vip', color: '#ff0000', type: 'chat', org_id: w.org.id });
      expect((await api.post('/labels/create', { name: 'vip' })).body).toEqual(res.body);
      w.vip = res.body.label_id;
      expect((await api.get('/labels')).body).toMatchObject({ from: 1, to: 1, count: 1, labels: [{ label_id: w.vip }] });
      expect((await other.get('/labels')).body).toEqual({ from: 0, to: 0, count: 0, labels: [] });
      expect422(await api.post('/labels/create', { name: 'a,b' }), 'body.name');
      expect422(await api.post('/labels/create', { name: 'x', color: 'red' }), 'body.color');
    });

    it("defines custom properties, refuses a second of the same name (any case), renames; another organization's is 404", async () => {
      const tier = await api.post('/custom-properties/create', {
        property_name: 'Tier',
        property_value_type: 'dropdown',
        property_value: 'Gold,Silver',
        is_required: true,
      });
      expect(tier.status).toBe(200);
      expect(CustomPropertySchema.safeParse(tier.body).success).toBe(true);
      expect(tier.body).toMatchObject({ property_name: 'Tier', property_value: 'Gold,Silver', is_required: true, type: 'chat' });
      const seats = await api.post('/custom-properties/create', { property_name: 'Seats', property_value_type: 'number' });
      [w.tier, w.seats] = [tier.body.property_id, seats.body.property_id];
      expect422(await api.post('/custom-properties/create', { property_name: 'tier' }), 'body.property_name');
      expect422(
        await api.post('/custom-properties/create', { property_name: 'Plan', property_value_type: 'dropdown' }),
        'body.property_value',
      );
      expect422(
        await api.post('/custom-properties/create', { property_name: 'Plan', property_value_type: 'colour' }),
        'body.property_value_type',
      );
      expect((await api.patch(`/custom-properties/${w.seats}`, { property_name: 'Licences' })).body).toMatchObject({
        property_name: 'Licences',
      });
      expect422(await api.patch(`/custom-properties/${w.seats}`, {}), 'body.property_name');
      expect404(await other.patch(`/custom-properties/${w.tier}`, { property_name: 'Mine' }));
      expect404(await other.delete(`/custom-properties/${w.tier}`));
      expect((await api.get('/custom-properties')).body).toMatchObject({
        count: 2,
        custom_properties: [{ property_name: 'Tier' }, { property_name: 'Licences' }],
      });
      expect((await other.get('/custom-properties')).body).toEqual({ count: 0, custom_properties: [] });
    });
  });

  describe('PATCH /chats/labels', () => {
    it('replaces the labels of several chats (unknown ones created): 204, label_ids on GET, chat.label.updated on the outbox and realtime', async () => {
      const res = await api.patch('/chats/labels', { labels: 'VIP, Late', chat_ids: [alice, chatC] });
      expect(res.status).toBe(204);
      const late = (await api.get('/labels')).body.labels.find((l: any) => l.name === 'late');
      w.late = late.label_id;
      const chat = await api.get(`/chats/${alice}`);
      expect(chat.body.label_ids).toEqual({ [w.vip]: true, [w.late]: true });
      const first = (await events('chat.label.updated')).find((e) => (e.payload as any).chat_id === chatA);
      if (!first) throw new Error('no chat.label.updated for chat A');
      expect(registryPayload(first)).toMatchObject({ chat_id: chatA, label_ids: { [w.vip]: true, [w.late]: true } });
      expect(first.previous_attributes).toEqual({ label_ids: {} });
      const got = await until(
        async () => realtime.filter((e) => e.type === 'chat.label.updated'),
        (l) => l.length === 2,
        15_000,
        'chat.label.updated on realtime',
      );
      expect(got.map((e) => e.data.chat_id).sort()).toEqual([chatA, chatC].sort());
    });

    it('GET /chats?label= keeps the chats with the label, by name in any case or by id, narrowed to the phones in reach', async () => {
      expect(chatIds(await api.get('/chats?label=vip'))).toEqual([chatC, chatA]);
      expect(chatIds(await api.get(`/chats?label=${w.late}`))).toEqual([chatC, chatA]);
      expect(chatIds(await api.get('/chats?label=LATE', { 'x-phone': w.p1.phone_id }))).toEqual([chatA]);
      expect(chatIds(await scoped.get('/chats?label=vip'))).toEqual([chatA]);
      expect((await api.get('/chats?label=nobody')).body).toEqual({ from: 0, to: 0, count: 0, chats: [] });
      expect((await other.get('/chats?label=vip')).body.chats).toEqual([]);
    });

    it("all or nothing: another organization's chat among the ids is 404, nothing relabelled, no label created", async () => {
      const labels = await stack.prisma.inboxLabel.count();
      expect404(await api.patch('/chats/labels', { labels: 'brand-new', chat_ids: [chatB, `${randomDigits()}@c.us`] }));
      expect404(await other.patch('/chats/labels', { labels: 'theirs', chat_ids: [bob] })); // only ours holds bob's chat
      expect(await stack.prisma.inboxLabel.count()).toBe(labels);
      expect((await api.get(`/chats/${alice}`)).body.label_ids).toEqual({ [w.vip]: true, [w.late]: true });
      expect422(await api.patch('/chats/labels', { labels: 'x' }), 'body.chat_ids');
      expect422(await api.patch('/chats/labels', { chat_ids: [alice] }), 'body.labels');
    });

    it('a scoped token: 401 for x-phone outside its phones, 404 for a chat only its other phones hold', async () => {
      const res = await scoped.patch('/chats/labels', { labels: 'x', chat_ids: [chatC] }, { 'x-phone': w.p2.phone_id });
      expect(res.status).toBe(401);
      expect404(await scoped.patch('/chats/labels', { labels: 'x', chat_ids: [chatC] }));
    });
  });

  describe('PATCH /chats/{chat_id}', () => {
    it('sets custom properties by name or id, the assignee and labels: 200 with the chat, chat.custom_properties.updated', async () => {
      const res = await api.patch(`/chats/${bob}`, {
        custom_properties: { tier: 'gold', [w.seats]: 12 },
        assigned_to: 'Amy@Example.com',
        labels: 'vip',
      });
      expect(res.status).toBe(200);
      expect(ChatViewSchema.safeParse(res.body).success).toBe(true);
      expect(res.body).toMatchObject({
        chat_id: chatB,
        assigned_to: 'amy@example.com',
        custom_properties: { [w.tier]: 'Gold', [w.seats]: '12' },
        label_ids: { [w.vip]: true },
      });
      expect((await api.get('/chats?label=vip')).body.chats.find((c: any) => c.chat_id === chatB)).toMatchObject({
        assigned_to: 'amy@example.com',
      });
      const [updated] = await events('chat.custom_properties.updated');
      expect(registryPayload(updated)).toMatchObject({ chat_id: chatB, custom_properties: { [w.tier]: 'Gold', [w.seats]: '12' } });
      expect(updated.previous_attributes).toEqual({ custom_properties: {} });
      await until(
        async () => realtime.filter((e) => e.type === 'chat.custom_properties.updated'),
        (l) => l.length === 1,
        15_000,
        'chat.custom_properties.updated on realtime',
      );
    });

    it('422 on each of labels, custom_properties, assigned_to when none is given', async () => {
      const res = await api.patch(`/chats/${bob}`, {});
      expect422(res, 'body.labels');
      expect(Object.keys(res.body.fields).sort()).toEqual(['body.assigned_to', 'body.custom_properties', 'body.labels']);
    });

    it.each([
      [{ custom_properties: { tier: 'Bronze' } }, 'body.custom_properties.tier'],
      [{ custom_properties: { licences: 'many' } }, 'body.custom_properties.licences'],
      [{ custom_properties: { colour: 'red' } }, 'body.custom_properties.colour'],
      [{ custom_properties: { Tier: null } }, 'body.custom_properties.Tier'],
      [{ custom_properties: 'tier=gold' }, 'body.custom_properties'],
      [{ assigned_to: 'amy' }, 'body.assigned_to'],
      [{ labels: 7 }, 'body.labels'],
    ])('422 for %j on %s, and nothing changes', async (body, field) => {
      const before = await api.get(`/chats/${bob}`);
      expect422(await api.patch(`/chats/${bob}`, body), field);
      expect((await api.get(`/chats/${bob}`)).body).toEqual(before.body);
    });

    it('clears a value with null and unassigns with ""; a change of nothing writes no event', async () => {
      const res = await api.patch(`/chats/${bob}`, { custom_properties: { licences: null }, assigned_to: '' });
      expect(res.body).toMatchObject({ assigned_to: null, custom_properties: { [w.tier]: 'Gold' } });
      const count = (await events('chat.custom_properties.updated')).length;
      expect((await api.patch(`/chats/${bob}`, { custom_properties: { tier: 'GOLD' } })).status).toBe(200);
      expect(await events('chat.custom_properties.updated')).toHaveLength(count);
    });

    it("another organization's chat: 404, nothing changes on theirs or ours; a scoped token's other phone: 404", async () => {
      expect404(await other.patch(`/chats/${bob}`, { labels: 'theirs' }));
      expect404(await api.patch(`/chats/${randomDigits()}`, { assigned_to: 'amy@example.com' }));
      expect((await other.get(`/chats/${alice}`)).body).toMatchObject({ label_ids: {}, custom_properties: {}, assigned_to: null });
      expect(await stack.prisma.inboxLabel.count({ where: { name: 'theirs' } })).toBe(0);
      expect404(await scoped.patch(`/chats/${carol}`, { assigned_to: 'amy@example.com' }));
      expect((await api.get(`/chats/${carol}`)).body.assigned_to).toBeNull();
    });

    it("deleting a definition removes every chat's value of it", async () => {
      expect((await api.delete(`/custom-properties/${w.tier}`)).body).toMatchObject({ property_id: w.tier });
      expect((await api.get(`/chats/${bob}`)).body.custom_properties).toEqual({});
      expect404(await api.delete(`/custom-properties/${w.tier}`));
    });
  });
});
