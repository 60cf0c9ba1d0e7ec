import { createOrg, createToken, randomDigits } from '@mapi/testing';
import { io as connect, type Socket } from 'socket.io-client';
import { joinByInvitation, type ConsoleSession } from './support/console-session';
import { client, expectEnvelope, until, type Answer } from './support/http';
import { connectedSandboxPhone } from './support/queue-phone';
import { startStack, type Stack } from './support/stack';

/**
 * A member's reach (labels and overrides) on every route beyond the four chat reads, across
 * services (issue 18): chats (messages by id, read marks, contacts), inbox (tickets, notes, tasks,
 * PATCH /chats/labels and /chats/{chat_id}), queue (send), groups (participants) and realtime.
 * Lea is a member of the phone limited to label VIP: chat A carries it, chat B and the group do not.
 * Gateway, chats, phones (sandbox network), members, inbox, queue and groups as processes.
 */
describe("a member's reach on every route", () => {
  let stack: Stack;
  let api: ReturnType<typeof client>;
  let lea: ConsoleSession;
  let ada: ConsoleSession;
  const w: Record<string, any> = {};
  const sockets: Socket[] = [];
  const [alice, bob] = [randomDigits(), randomDigits()];
  const [chatA, chatB] = [`${alice}@c.us`, `${bob}@c.us`];
  const expect404 = (res: Answer) => {
    expect([res.status, res.body?.code]).toEqual([404, 'NOT_FOUND_ERROR']);
    expectEnvelope(res.body, 'NOT_FOUND_ERROR', 404);
  };
  const inbound = async (contact: string, body: string) => {
    const res = await api.post('/sandbox/messages', { chat_id: contact, body }, { 'x-phone': w.p1 });
    await until(
      () => api.get(`/message/${encodeURIComponent(res.body.message_id)}`),
      (r) => r.status === 200,
      15_000,
      'inbound stored',
    );
    return res.body.message_id as string;
  };
  const join = (email: string, body: Record<string, unknown>): Promise<ConsoleSession> =>
    joinByInvitation(stack.baseUrl, api, { emails: [email], ...body }, 'correct horse battery');
  const listen = async (headers: Record<string, string>) => {
    const s = connect(stack.baseUrl, { transports: ['websocket'], reconnection: false, extraHeaders: headers });
    sockets.push(s);
    const got: { type: string; data: any }[] = [];
    s.onAny((type, data) => got.push({ type, data }));
    await new Promise<void>((resolve, reject) => {
      s.once('connect', () => resolve());
      s.once('connect_error', reject);
    });
    return { got, socket: s };
  };

  beforeAll(async () => {
    stack = await startStack(
      {
        REALTIME_REAUTH_INTERVAL_MS: '300',
        SESSION_SCAN_MS: '200',
        QUEUE_SEND_INTERVAL_MS: '20',
        QUEUE_SEND_JITTER_MS: '10',
        QUEUE_PHONE_SCAN_MS: '200',
      },
      { services: ['phones', 'members', 'inbox', 'queue', 'groups'] },
    );
    w.org = await createOrg(stack.prisma);
    w.token = (await createToken(stack.prisma, w.org.id)).token;
    api = client(stack.baseUrl, w.token);
    ({ phoneId: w.p1 } = await connectedSandboxPhone(api));
    w.mA = await inbound(alice, 'order question');
    w.mB = await inbound(bob, 'hello from bob');
    expect((await api.patch('/chats/labels', { labels: 'VIP', chat_ids: [chatA] })).status).toBe(204);
    w.group = (
      await api.post('/sandbox/groups', { subject: 'Ops', participants: [alice], admins: [alice] }, { 'x-phone': w.p1 })
    ).body.chat_id;
    await until(
      () => api.get(`/chats/${w.group}`),
      (r) => r.status === 200,
      15_000,
      'group stored',
    );
    lea = await join('lea@example.com', { role: 'member', orgPhones: [w.p1], labels: ['VIP'] });
    ada = await join('ada@example.com', { role: 'admin' });
    w.tA = (await api.post('/tickets/create', { chat_id: alice, subject: 'A' })).body.ticket.ticket_id;
    w.tB = (await api.post('/tickets/create', { chat_id: bob, subject: 'B' })).body.ticket.ticket_id;
    w.nA = (await api.post('/note/create', { chat_id: alice, message: 'note A' })).body.data.message_id;
    w.nB = (await api.post('/note/create', { chat_id: bob, message: 'note B' })).body.data.message_id;
    w.kA = (await api.post('/tasks/create', { title: 'A', association: { chat_id: alice } })).body.task_id;
    w.kB = (await api.post('/tasks/create', { title: 'B', association: { chat_id: bob } })).body.task_id;
    w.todo = (await api.post('/tasks/create', { title: 'stickers' })).body.task_id;
  }, 180_000);

  afterAll(async () => {
    sockets.forEach((s) => s.disconnect());
    await stack?.stop();
  }, 60_000);

  it('chats: a message of chat B, its actions and its read mark are 404 for Lea; the token and an admin act on them', async () => {
    expect((await lea.call('GET', `/message/${encodeURIComponent(w.mA)}`)).status).toBe(200);
    expect404(await lea.call('GET', `/message/${encodeURIComponent(w.mB)}`));
    expect404(await lea.call('POST', `/message/${encodeURIComponent(w.mB)}/react`, { reaction: '👍' }));
    expect404(await lea.call('POST', `/message/${encodeURIComponent(w.mA)}/forward`, { forward_chat_ids: [chatB] }));
    expect404(await lea.call('POST', `/chats/${chatB}/read`));
    expect((await lea.call('POST', `/chats/${chatA}/read`)).status).toBe(200);
    expect((await ada.call('GET', `/message/${encodeURIComponent(w.mB)}`)).status).toBe(200);
    expect((await api.post(`/chats/${chatB}/read`)).status).toBe(200);
  });

  it('contacts: Lea sees the contacts of the chats she reaches only', async () => {
    const ids = (res: Answer) => (res.body.contacts as any[]).map((c) => c.contact_id);
    await until(
      () => api.get('/contacts'),
      (r) => ids(r).includes(chatB),
      10_000,
      'contacts learnt',
    );
    expect(ids(await lea.call('GET', '/contacts'))).toContain(chatA);
    expect(ids(await lea.call('GET', '/contacts'))).not.toContain(chatB);
    expect404(await lea.call('GET', `/contacts/${chatB}`));
    expect404(await lea.call('PATCH', `/contacts/${chatB}`, { contact_name: 'Bob' }));
    expect404(await lea.call('PATCH', '/contacts/labels', { contact_ids: [chatA, chatB], labels: 'x' }));
    expect(ids(await ada.call('GET', '/contacts'))).toEqual(expect.arrayContaining([chatA, chatB]));
  });

  it('inbox: tickets, notes and tasks of chat B are missing for Lea, listings narrowed; writes to chat B are 404', async () => {
    expect((await lea.call('GET', '/tickets')).body.tickets.map((t: any) => t.ticket_id)).toEqual([w.tA]);
    expect((await ada.call('GET', '/tickets')).body.tickets.map((t: any) => t.ticket_id)).toEqual([w.tB, w.tA]);
    expect404(await lea.call('GET', `/tickets/${w.tB}`));
    expect404(await lea.call('PATCH', `/tickets/${w.tB}`, { status: 'closed' }));
    expect((await api.get(`/tickets/${w.tB}`)).body).toMatchObject({ ticket: { status: 'open' } });
    expect((await lea.call('GET', '/note')).body.notes.map((n: any) => n.message_id)).toEqual([w.nA]);
    expect404(await lea.call('GET', `/note/${w.nB}`));
    expect((await lea.call('GET', `/chats/${chatB}/notes`)).body.notes).toEqual([]);
    expect((await lea.call('GET', '/tasks')).body.tasks.map((t: any) => t.task_id).sort()).toEqual([w.kA, w.todo].sort());
    expect404(await lea.call('GET', `/tasks/${w.kB}`));
    expect404(await lea.call('DELETE', `/tasks/${w.kB}`));
    expect404(await lea.call('POST', '/tasks/create', { title: 'x', association: { ticket_id: w.tB } }));
    expect404(await lea.call('PATCH', '/chats/labels', { labels: 'VIP', chat_ids: [chatB] }));
    expect404(await lea.call('PATCH', `/chats/${chatB}`, { assigned_to: 'lea@example.com' }));
    expect((await api.get(`/chats/${chatB}`)).body).toMatchObject({ label_ids: {}, assigned_to: null });
    expect((await lea.call('PATCH', `/chats/${chatA}`, { assigned_to: 'lea@example.com' })).status).toBe(200);
  });

  it('sends and group actions: Lea may not send to chat B nor act on the group; the token may', async () => {
    expect404(await lea.call('POST', '/message/send', { chat_id: chatB, message: 'hi' }));
    expect404(await lea.call('POST', '/message/send', { chat_id: randomDigits(), message: 'new chat, not her label' }));
    expect404(await lea.call('POST', '/message/broadcast', { chat_ids: [chatA, chatB], message: 'hi' }, { 'x-phone': w.p1 }));
    expect((await lea.call('POST', '/message/send', { chat_id: chatA, message: 'hi' })).status).toBe(200);
    expect404(await lea.call('POST', `/chats/${w.group}/add`, { participants: [bob] }));
    expect404(await lea.call('POST', `/chats/${w.group}/leave`));
    expect((await api.post('/message/send', { chat_id: chatB, message: 'from the token' })).status).toBe(200);
  });

  it('queue listings: Lea sees the jobs of chat A only, by status or by queue id; the token sees both', async () => {
    const toA = (await lea.call('POST', '/message/send', { chat_id: chatA, message: 'listed for Lea' })).body.queue_id;
    const toB = (await api.post('/message/send', { chat_id: chatB, message: 'not listed for Lea' })).body.queue_id;
    const ids = (r: any) => (r.body as any[]).map((j) => j.id);
    const all = await until(
      () => api.get('/queue/jobs?limit=1000', { 'x-phone': w.p1 }),
      (r) => ids(r).includes(toA) && ids(r).includes(toB),
      15_000,
      'both jobs listed',
    );
    expect(all.status).toBe(200);
    const hers = await lea.call('GET', '/queue/jobs?limit=1000', undefined, { 'x-phone': w.p1 });
    expect(ids(hers)).toContain(toA);
    expect(ids(hers)).not.toContain(toB);
    expect((hers.body as any[]).every((j) => j.data.chat_id === chatA)).toBe(true);
    expect((await lea.call('GET', `/queue/jobs?queue_id=${toB}`, undefined, { 'x-phone': w.p1 })).body).toEqual([]);
    expect(ids(await lea.call('GET', `/queue/jobs?queue_id=${toA}`, undefined, { 'x-phone': w.p1 }))).toEqual([toA]);
    expect(ids(await api.get(`/queue/jobs?queue_id=${toB}`, { 'x-phone': w.p1 }))).toEqual([toB]);
  });

  it("realtime: Lea's socket receives only the events of chat A; the token's receives both; re-authentication keeps her session's socket", async () => {
    const [mine, theirs] = [await listen({ cookie: lea.cookie }), await listen({ Authorization: `Bearer ${w.token}` })];
    const [leas, tokens] = [mine.got, theirs.got];
    await new Promise((r) => setTimeout(r, 1_000)); // a few re-authentications (every 300 ms here), by cookie
    const created = (got: { type: string; data: any }[]) => got.filter((g) => g.type === 'message.created').map((g) => g.data.chat_id);
    await inbound(bob, 'B again');
    await inbound(alice, 'A again');
    await until(
      async () => created(leas),
      (c) => c.includes(chatA),
      10_000,
      'lea got A',
    );
    await until(
      async () => created(tokens),
      (c) => c.includes(chatA) && c.includes(chatB),
      10_000,
      'token got both',
    );
    expect(new Set(created(leas))).toEqual(new Set([chatA]));
    expect(leas.every((g) => !g.data?.chat_id || g.data.chat_id === chatA)).toBe(true);
    expect(leas.filter((g) => g.type === 'error')).toEqual([]);
    expect(mine.socket.connected).toBe(true);
  });
});
