import { createOrg, createToken, randomDigits } from '@mapi/testing';
import { client, until } from './support/http';
import { startStack, type Stack } from './support/stack';

/** POST /v1/chats/{chat_id}/demote (spec 4.4) and add/remove/promote, through a sandbox phone. */
describe('group participant actions', () => {
  let stack: Stack;
  let api: ReturnType<typeof client>;
  let other: ReturnType<typeof client>;
  const w: Record<string, any> = {};
  const c = (d: string) => `${d}@c.us`;
  const admins = async (group: string) =>
    (await stack.prisma.groupParticipant.findMany({ where: { phone_id: w.phoneId, chat_id: group, is_admin: true } }))
      .map((p) => p.contact_id)
      .sort();

  beforeAll(async () => {
    stack = await startStack({ SESSION_SCAN_MS: '200' }, { services: ['phones', 'groups'] });
    const org = await createOrg(stack.prisma);
    w.org = org;
    api = client(stack.baseUrl, (await createToken(stack.prisma, org.id)).token);
    other = client(stack.baseUrl, (await createToken(stack.prisma, (await createOrg(stack.prisma)).id)).token);
    w.phoneId = (await api.post('/phones/create')).body.phone_id;
    await until(
      () => api.get('/phones', { 'x-phone': w.phoneId }),
      (r) => r.body?.wa_state === 'QR',
      10_000,
      'QR',
    );
    w.number = randomDigits();
    await api.post('/sandbox/phones/scan', { number: w.number }, { 'x-phone': w.phoneId });
    await until(
      () => api.get('/phones', { 'x-phone': w.phoneId }),
      (r) => r.body?.wa_state === 'CONNECTED',
      10_000,
      'connected',
    );
    [w.a, w.b, w.x] = [randomDigits(), randomDigits(), randomDigits()];
    w.group = (
      await api.post('/sandbox/groups', { subject: 'Ops', participants: [w.a, w.b], admins: [w.a] }, { 'x-phone': w.phoneId })
    ).body.chat_id;
    w.notAdminGroup = (
      await api.post(
        '/sandbox/groups',
        { subject: 'Fans', participants: [w.a], admins: [w.a], phone_is_admin: false },
        { 'x-phone': w.phoneId },
      )
    ).body.chat_id;
    await until(
      () => admins(w.group),
      (list) => list.length === 2,
      10_000,
      'group stored',
    );
  }, 120_000);

  afterAll(() => stack?.stop(), 60_000);

  it('demotes admins and reports every participant (spec 2.4), and the stored group follows', async () => {
    const res = await api.post(`/chats/${w.group}/demote`, { participants: [w.a, w.b, w.x] }, { 'x-phone': w.phoneId });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      [c(w.a)]: { is_success: true, message: 'Demoted to member', code: 200 },
      [c(w.b)]: { is_success: false, message: 'Not an admin of this group', code: 409 },
      [c(w.x)]: { is_success: false, message: 'Not a member of this group', code: 404 },
    });
    expect(
      await until(
        () => admins(w.group),
        (list) => list.length === 1,
        10_000,
        'demotion stored',
      ),
    ).toEqual([c(w.number)]);
    const events = await until(
      () => stack.prisma.outboxEvent.findMany({ where: { org_id: w.org.id, type: 'chat.notification.created' } }),
      (e) => e.length >= 1,
      5_000,
      'event',
    );
    expect(events[0].payload).toMatchObject({ chat_id: w.group, notification_type: 'group.demote', participants: [c(w.a)] });
  });

  it('without x-phone acts through an admin phone of the group (promote, add, remove)', async () => {
    const promoted = await api.post(`/chats/${w.group}/promote`, { participants: [w.a] });
    expect(promoted.body[c(w.a)]).toEqual({ is_success: true, message: 'Promoted to admin', code: 200 });
    const added = await api.post(`/chats/${w.group}/add`, { participants: [w.x, w.b] });
    expect(added.body).toEqual({
      [c(w.x)]: { is_success: true, message: 'Added to the group', code: 200 },
      [c(w.b)]: { is_success: false, message: 'Already a member of this group', code: 409 },
    });
    const removed = await api.post(`/chats/${w.group}/remove`, { participants: [w.x] });
    expect(removed.body[c(w.x)].is_success).toBe(true);
  });

  it('reports is_success false for everyone when the phone is not an admin', async () => {
    const res = await api.post(`/chats/${w.notAdminGroup}/demote`, { participants: [w.a] }, { 'x-phone': w.phoneId });
    expect(res.status).toBe(200);
    expect(res.body[c(w.a)]).toEqual({ is_success: false, message: 'The phone is not an admin of this group', code: 403 });
    const chosen = await api.post(`/chats/${w.notAdminGroup}/demote`, { participants: [w.a] });
    expect(chosen.status).toBe(400);
    expect(chosen.body).toMatchObject({ code: 'ERROR', message: expect.stringMatching(/admin/) });
  });

  it.each([
    ['a chat id that is not a group', (_g: string) => `/chats/${w.a}/demote`, { participants: ['1234567'] }, 'chat_id'],
    ['no participants', (g: string) => `/chats/${g}/demote`, { participants: [] }, 'body.participants'],
    ['a participant with symbols', (g: string) => `/chats/${g}/demote`, { participants: ['+44 7700'] }, 'body.participants.0'],
    ['no body', (g: string) => `/chats/${g}/demote`, undefined, 'body'],
  ])('answers 422 for %s', async (_n, path, body, field) => {
    const res = await api.post(path(w.group), body, { 'x-phone': w.phoneId });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', status: 422 });
    expect(res.body.fields[field]).toBeDefined();
  });

  it('answers 400 ERROR while the phone is disconnected or unreachable', async () => {
    for (const state of ['DISCONNECTED', 'UNREACHABLE']) {
      await api.post('/sandbox/phones/state', { state }, { 'x-phone': w.phoneId });
      await until(
        () => api.get('/phones', { 'x-phone': w.phoneId }),
        (r) => r.body?.wa_state === state,
        10_000,
        state,
      );
      const res = await api.post(`/chats/${w.group}/demote`, { participants: [w.a] }, { 'x-phone': w.phoneId });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'ERROR', status: 400 });
      expect((await api.post(`/chats/${w.group}/demote`, { participants: [w.a] })).status).toBe(400);
    }
    await api.post('/sandbox/phones/state', { state: 'CONNECTED' }, { 'x-phone': w.phoneId });
  });

  it('keeps other organizations out', async () => {
    expect((await other.post(`/chats/${w.group}/demote`, { participants: [w.a] }, { 'x-phone': w.phoneId })).status).toBe(401);
    const chosen = await other.post(`/chats/${w.group}/demote`, { participants: [w.a] });
    expect(chosen.status).toBe(400);
  });
});
