import { ContactSchema } from '@mapi/contracts';
import { createOrg, createPhone, createToken, randomDigits } from '@mapi/testing';
import { callApi, expectEnvelope, until } from './support/http';
import { startStack, type Stack } from './support/stack';

/**
 * Contacts end to end (issue 16, item 2): learned from what a sandbox phone sees (with the names
 * the network gives), and GET /contacts, GET|PATCH /contacts/{contact_id}, PATCH /contacts/labels,
 * POST /contacts/create — with the gateway, chats and phones running as processes.
 */
describe('contacts', () => {
  let stack: Stack;
  const w: Record<string, any> = {};
  const c = (d: string) => `${d}@c.us`;
  const call = (token: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    callApi(stack.baseUrl, method, path, token, body, headers);
  const get = (token: string, path: string, headers: Record<string, string> = {}) => call(token, 'GET', path, undefined, headers);
  const row = (org: string, id: string) =>
    stack.prisma.contact.findUnique({ where: { org_id_contact_id: { org_id: org, contact_id: id } } });
  const expect422 = (res: { status: number; body: any }, field: string) => {
    expect(res.status).toBe(422);
    expectEnvelope(res.body, 'VALIDATION_ERROR', 422);
    expect(res.body.fields[field]).toBeDefined();
  };
  const expect404 = (res: { status: number; body: any }) => {
    expect(res.status).toBe(404);
    expectEnvelope(res.body, 'NOT_FOUND_ERROR', 404);
  };

  beforeAll(async () => {
    stack = await startStack({ SESSION_SCAN_MS: '200' }, { services: ['phones'] });
    const p = stack.prisma;
    w.orgA = await createOrg(p);
    w.orgB = await createOrg(p);
    w.tA = (await createToken(p, w.orgA.id)).token;
    w.tB = (await createToken(p, w.orgB.id)).token;
    w.p1 = (await call(w.tA, 'POST', '/phones/create')).body.phone_id; // a sandbox phone that receives messages
    await until(
      () => get(w.tA, '/phones', { 'x-phone': w.p1 }),
      (r) => r.body?.wa_state === 'QR',
      10_000,
      'QR',
    );
    w.number = randomDigits();
    await call(w.tA, 'POST', '/sandbox/phones/scan', { number: w.number }, { 'x-phone': w.p1 });
    await until(
      () => get(w.tA, '/phones', { 'x-phone': w.p1 }),
      (r) => r.body?.wa_state === 'CONNECTED',
      10_000,
      'connected',
    );
    w.p2 = (await createPhone(p, w.orgA.id)).phone_id;
    w.q1 = (await createPhone(p, w.orgB.id)).phone_id;
    w.tA1 = (await createToken(p, w.orgA.id, { phoneIds: [w.p1] })).token; // scoped to p1
    [w.alice, w.bob, w.carol, w.dave] = [randomDigits(), randomDigits(), randomDigits(), randomDigits()].sort();
    // Bob is a contact of p2 only; Bob's number is also organization B's contact (theirs, not ours).
    await p.contact.create({ data: { org_id: w.orgA.id, contact_id: c(w.bob), phone_ids: [w.p2], pushname: 'Bob' } });
    await p.contact.create({ data: { org_id: w.orgB.id, contact_id: c(w.bob), phone_ids: [w.q1], pushname: 'Bob of B' } });
    await p.contact.create({ data: { org_id: w.orgB.id, contact_id: c(w.dave), phone_ids: [w.q1], pushname: 'Dave' } });
  }, 120_000);

  afterAll(() => stack?.stop(), 60_000);

  describe('learning from the sandbox network', () => {
    it('names a contact after the sender_name of an inbound sandbox message, with its 1-1 chat', async () => {
      const sent = await call(
        w.tA,
        'POST',
        '/sandbox/messages',
        { chat_id: w.alice, body: 'Hi, Alice here', sender_name: 'Alice' },
        { 'x-phone': w.p1 },
      );
      expect(sent.status).toBe(200);
      const res = await until(
        () => get(w.tA, `/contacts/${w.alice}`),
        (r) => r.status === 200,
        15_000,
        'contact learned',
      );
      expect(res.body).toMatchObject({
        contact_id: c(w.alice),
        number: w.alice,
        contact_name: 'Alice',
        pushname: 'Alice',
        periskope_name: null,
        org_id: w.orgA.id,
        chat_ids: [c(w.alice)],
      });
      expect(ContactSchema.safeParse(res.body).success).toBe(true);
      expect((await row(w.orgA.id, c(w.alice)))?.phone_ids).toEqual([w.p1]);
    });

    it('learns a group sender with its name, the group among its chat_ids', async () => {
      const group = (await call(w.tA, 'POST', '/sandbox/groups', { subject: 'Crew', participants: [w.carol] }, { 'x-phone': w.p1 })).body
        .chat_id;
      await call(
        w.tA,
        'POST',
        '/sandbox/messages',
        { chat_id: group, from: w.carol, body: 'hello crew', sender_name: 'Carol' },
        { 'x-phone': w.p1 },
      );
      const res = await until(
        () => get(w.tA, `/contacts/${c(w.carol)}`),
        (r) => r.status === 200 && r.body.chat_ids.length === 1,
        15_000,
        'group sender learned',
      );
      expect(res.body).toMatchObject({ contact_name: 'Carol', pushname: 'Carol', chat_ids: [group] });
      const chat = await until(
        () => get(w.tA, `/chats/${encodeURIComponent(group)}`),
        (r) => !!r.body?.members?.[c(w.carol)],
        15_000,
        'group members',
      );
      expect(chat.body.members[c(w.carol)]).toMatchObject({ contact_id: c(w.carol), contact_name: 'Carol', pushname: 'Carol' });
    });
  });

  describe('GET /contacts', () => {
    it("lists the organization's contacts by contact_id as ContactType objects, paged", async () => {
      const res = await get(w.tA, '/contacts');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ from: 1, to: 3, count: 3 });
      expect(res.body.contacts.map((x: any) => [x.contact_id, x.contact_name])).toEqual([
        [c(w.alice), 'Alice'],
        [c(w.bob), 'Bob'],
        [c(w.carol), 'Carol'],
      ]);
      for (const x of res.body.contacts) {
        expect(ContactSchema.safeParse(x).success).toBe(true);
        expect(Object.keys(x).sort()).toEqual(
          Object.keys(ContactSchema.shape)
            .filter((k) => k !== 'chat_ids')
            .sort(),
        );
      }
      expect((await get(w.tA, '/contacts?offset=1&limit=1')).body).toMatchObject({
        from: 2,
        to: 2,
        count: 1,
        contacts: [{ contact_id: c(w.bob) }],
      });
      expect((await get(w.tA, '/contacts?offset=3')).body).toEqual({ from: 3, to: 3, count: 0, contacts: [] });
    });

    it("narrows to the x-phone phone and a scoped token's phones; never shows another organization's", async () => {
      expect((await get(w.tA, '/contacts', { 'x-phone': w.p2 })).body.contacts.map((x: any) => x.contact_id)).toEqual([c(w.bob)]);
      expect((await get(w.tA1, '/contacts')).body.contacts.map((x: any) => x.contact_id)).toEqual([c(w.alice), c(w.carol)]);
      const theirs = await get(w.tB, '/contacts');
      expect(theirs.body.contacts.map((x: any) => [x.contact_id, x.contact_name, x.org_id])).toEqual([
        [c(w.bob), 'Bob of B', w.orgB.id],
        [c(w.dave), 'Dave', w.orgB.id],
      ]);
    });

    it.each([
      ['limit=2001', 'limit'],
      ['limit=0', 'limit'],
      ['limit=abc', 'limit'],
      ['offset=-1', 'offset'],
    ])('%s with 422 on %s', async (qs, field) => expect422(await get(w.tA, `/contacts?${qs}`), field));
  });

  describe('GET /contacts/{contact_id}', () => {
    it('reads one contact by digits or digits@c.us', async () => {
      const one = await get(w.tA, `/contacts/${w.bob}`);
      expect(one.status).toBe(200);
      expect(one.body).toMatchObject({ contact_id: c(w.bob), contact_name: 'Bob', chat_ids: [] });
      expect((await get(w.tA, `/contacts/${c(w.bob)}`)).body).toEqual(one.body);
    });

    it("gives the same 404 for another organization's contact, a missing one, and one outside the phones in reach", async () => {
      expect404(await get(w.tA, `/contacts/${w.dave}`));
      expect404(await get(w.tA, `/contacts/${randomDigits()}`));
      expect404(await get(w.tA1, `/contacts/${w.bob}`));
      expect404(await get(w.tA, `/contacts/${w.alice}`, { 'x-phone': w.p2 }));
    });

    it('answers 422 on contact_id for an id of neither form, and for a group id', async () => {
      expect422(await get(w.tA, '/contacts/abc'), 'contact_id');
      expect422(await get(w.tA, `/contacts/${encodeURIComponent('120363111@g.us')}`), 'contact_id');
    });
  });

  describe('PATCH /contacts/{contact_id}', () => {
    const patch = (token: string, id: string, body: unknown, headers: Record<string, string> = {}) =>
      call(token, 'PATCH', `/contacts/${id}`, body, headers);

    it('sets the name, is_internal and labels; a later push name from the network does not replace the name', async () => {
      const res = await patch(w.tA, w.alice, { contact_name: 'Alice (customer)', is_internal: true, labels: 'VIP, lead ,vip' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        contact_name: 'Alice (customer)',
        periskope_name: 'Alice (customer)',
        pushname: 'Alice',
        is_internal: true,
        labels: ['vip', 'lead'],
        label_ids: { vip: true, lead: true },
        chat_ids: [c(w.alice)],
      });
      expect(ContactSchema.safeParse(res.body).success).toBe(true);
      await call(w.tA, 'POST', '/sandbox/messages', { chat_id: w.alice, body: 'new name', sender_name: 'Ally' }, { 'x-phone': w.p1 });
      const after = await until(
        () => get(w.tA, `/contacts/${w.alice}`),
        (r) => r.body?.pushname === 'Ally',
        15_000,
        'push name',
      );
      expect(after.body).toMatchObject({
        contact_name: 'Alice (customer)',
        periskope_name: 'Alice (customer)',
        is_internal: true,
        labels: ['vip', 'lead'],
      });
    });

    it("answers 404 for another organization's contact and one outside reach, changing nothing", async () => {
      expect404(await patch(w.tA, w.dave, { contact_name: 'Mine now' }));
      expect404(await patch(w.tA1, w.bob, { labels: 'x' }));
      expect(await row(w.orgB.id, c(w.dave))).toMatchObject({ contact_name: null, labels: [] });
      expect(await row(w.orgA.id, c(w.bob))).toMatchObject({ contact_name: null, labels: [] });
    });

    it.each([
      ['an empty body', {}, 'body'],
      ['no body', undefined, 'body'],
      ['an empty contact_name', { contact_name: '  ' }, 'body.contact_name'],
      ['a contact_name that is not a string', { contact_name: 5 }, 'body.contact_name'],
      ['an is_internal that is not a boolean', { is_internal: 'yes' }, 'body.is_internal'],
      ['labels that are not a string', { labels: ['a'] }, 'body.labels'],
    ])('answers 422 for %s', async (_n, body, field) => {
      expect422(await patch(w.tA, w.bob, body), field);
      expect(await row(w.orgA.id, c(w.bob))).toMatchObject({ contact_name: null, is_internal: false });
    });

    it('answers 422 on contact_id for a malformed id', async () =>
      expect422(await patch(w.tA, 'not-a-number', { contact_name: 'x' }), 'contact_id'));
  });

  describe('PATCH /contacts/labels', () => {
    const relabel = (token: string, body: unknown, headers: Record<string, string> = {}) =>
      call(token, 'PATCH', '/contacts/labels', body, headers);

    it('replaces the labels of every contact given: 204, no content', async () => {
      const res = await relabel(w.tA, { labels: 'Gold,Partner', contact_ids: [w.bob, c(w.carol)] });
      expect(res.status).toBe(204);
      expect(res.body).toBe('');
      expect((await get(w.tA, `/contacts/${w.carol}`)).body.labels).toEqual(['gold', 'partner']);
      expect((await row(w.orgA.id, c(w.bob)))?.labels).toEqual(['gold', 'partner']);
    });

    it("is all or nothing: another organization's or an out-of-reach id is 404 and nothing changes", async () => {
      expect404(await relabel(w.tA, { labels: 'silver', contact_ids: [w.carol, w.dave] }));
      expect404(await relabel(w.tA1, { labels: 'silver', contact_ids: [w.carol, w.bob] }));
      expect((await row(w.orgA.id, c(w.carol)))?.labels).toEqual(['gold', 'partner']);
      expect((await row(w.orgB.id, c(w.dave)))?.labels).toEqual([]);
    });

    it.each([
      ['no labels', { contact_ids: ['123456789'] }, 'body.labels'],
      ['no contact_ids', { labels: 'a' }, 'body.contact_ids'],
      ['empty contact_ids', { labels: 'a', contact_ids: [] }, 'body.contact_ids'],
      ['a malformed contact id', { labels: 'a', contact_ids: ['+44 7700'] }, 'body.contact_ids.0'],
      ['contact_ids that are not an array', { labels: 'a', contact_ids: '123456789' }, 'body.contact_ids'],
    ])('answers 422 for %s', async (_n, body, field) => expect422(await relabel(w.tA, body), field));
  });

  describe('POST /contacts/create', () => {
    const create = (token: string, body: unknown, headers: Record<string, string> = {}) =>
      call(token, 'POST', '/contacts/create', body, headers);

    it('creates a named contact of the x-phone phone; a retry answers the same contact', async () => {
      const id = randomDigits();
      const res = await create(w.tA, { contact_id: id, contact_name: 'Erin', is_internal: true, labels: 'staff' }, { 'x-phone': w.p1 });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        contact_id: c(id),
        contact_name: 'Erin',
        periskope_name: 'Erin',
        pushname: null,
        is_internal: true,
        is_imported: true,
        labels: ['staff'],
        chat_ids: [],
      });
      expect(ContactSchema.safeParse(res.body).success).toBe(true);
      const again = await create(w.tA, { contact_id: id, contact_name: 'Erin', is_internal: true, labels: 'staff' }, { 'x-phone': w.p1 });
      expect(again.body).toEqual({ ...res.body, updated_at: again.body.updated_at });
      expect(await stack.prisma.contact.count({ where: { org_id: w.orgA.id, contact_id: c(id) } })).toBe(1);
      expect((await get(w.tA1, `/contacts/${id}`)).status).toBe(200); // the scoped token's phone has it
    });

    it('names a number another organization has as a contact of its own organization only', async () => {
      const res = await create(w.tA, { contact_id: w.dave, contact_name: 'Our Dave' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ org_id: w.orgA.id, contact_name: 'Our Dave' });
      expect(await row(w.orgB.id, c(w.dave))).toMatchObject({ contact_name: null, pushname: 'Dave' });
      expect404(await get(w.tA1, `/contacts/${w.dave}`)); // made without a phone: not within p1's reach
    });

    it.each([
      ['no contact_name', { contact_id: '123456789' }, 'body.contact_name'],
      ['no contact_id', { contact_name: 'x' }, 'body.contact_id'],
      ['a malformed contact_id', { contact_id: '+44 7700', contact_name: 'x' }, 'body.contact_id'],
      ['a group id', { contact_id: '120363111@g.us', contact_name: 'x' }, 'body.contact_id'],
      ['an is_internal that is not a boolean', { contact_id: '123456789', contact_name: 'x', is_internal: 'no' }, 'body.is_internal'],
      ['labels that are not a string', { contact_id: '123456789', contact_name: 'x', labels: 3 }, 'body.labels'],
    ])('answers 422 for %s, creating nothing', async (_n, body, field) => {
      expect422(await create(w.tA, body), field);
      expect(await row(w.orgA.id, '123456789@c.us')).toBeNull();
    });
  });

  it("answers 401 on every route for an x-phone outside the token's scope or of another organization, changing nothing", async () => {
    for (const [token, phone] of [
      [w.tA1, w.p2],
      [w.tA, w.q1],
    ] as const) {
      const h = { 'x-phone': phone };
      for (const res of [
        await get(token, '/contacts', h),
        await get(token, `/contacts/${w.alice}`, h),
        await call(token, 'PATCH', `/contacts/${w.alice}`, { contact_name: 'Hijacked' }, h),
        await call(token, 'PATCH', '/contacts/labels', { labels: 'hijacked', contact_ids: [w.alice] }, h),
        await call(token, 'POST', '/contacts/create', { contact_id: w.alice, contact_name: 'Hijacked' }, h),
      ]) {
        expect(res.status).toBe(401);
        expectEnvelope(res.body, 'UNAUTHORIZED_ERROR', 401);
      }
    }
    expect(await row(w.orgA.id, c(w.alice))).toMatchObject({ contact_name: 'Alice (customer)', labels: ['vip', 'lead'] });
  });
});
