import { ListTasksResponse, TaskSchema } from '@mapi/contracts';
import { createOrg, createToken, randomDigits, registryPayload } from '@mapi/testing';
import { client, expect404, expect422, expectEnvelope, until, type Answer } from './support/http';
import { connectedSandboxPhone } from './support/queue-phone';
import { startStack, type Stack } from './support/stack';

/**
 * Tasks end to end (issue 17 item 4): POST /tasks/create, GET /tasks, GET|PATCH|DELETE
 * /tasks/{task_id} through the gateway, with the chats service's real lookups and the inbox's
 * reminder poller; another organization's ids read and change nothing; a scoped token's reach.
 */
describe('inbox: tasks', () => {
  let stack: Stack;
  let api: ReturnType<typeof client>;
  let other: ReturnType<typeof client>;
  let scoped: ReturnType<typeof client>;
  const w: Record<string, any> = {};
  const [alice, bob] = [randomDigits(), randomDigits()];
  const [chatA, chatB] = [`${alice}@c.us`, `${bob}@c.us`];
  const events = (type: string) => stack.prisma.outboxEvent.findMany({ where: { org_id: w.org.id, type }, orderBy: { seq: 'asc' } });
  const ids = (res: Answer) => res.body.tasks.map((t: any) => t.task_id);

  beforeAll(async () => {
    stack = await startStack({ SESSION_SCAN_MS: '200' }, { services: ['phones', 'inbox'] });
    w.org = await createOrg(stack.prisma);
    api = client(stack.baseUrl, (await createToken(stack.prisma, w.org.id)).token);
    other = client(stack.baseUrl, (await createToken(stack.prisma, (await createOrg(stack.prisma)).id)).token);
    ({ phoneId: w.p1 } = await connectedSandboxPhone(api));
    ({ phoneId: w.p2 } = await connectedSandboxPhone(api));
    scoped = client(stack.baseUrl, (await createToken(stack.prisma, w.org.id, { phoneIds: [w.p1] })).token);
    const res = await api.post('/sandbox/messages', { chat_id: alice, body: 'call me' }, { 'x-phone': w.p1 });
    w.m1 = res.body.message_id;
    await until(
      () => api.get(`/message/${encodeURIComponent(w.m1)}`, { 'x-phone': w.p1 }),
      (r) => r.status === 200,
      15_000,
      'inbound stored',
    );
    await api.post('/sandbox/messages', { chat_id: bob, body: 'hi' }, { 'x-phone': w.p2 });
    await until(
      () => api.get(`/chats/${bob}`),
      (r) => r.status === 200,
      15_000,
      'bob chat stored',
    );
    w.ticket = (await api.post('/tickets/create', { chat_id: bob, subject: 'Bob' })).body.ticket.ticket_id;
  }, 120_000);

  afterAll(() => stack?.stop(), 60_000);

  it('POST /tasks/create: a chat task, a message task, a ticket task and a todo, each with task.created', async () => {
    const chat = await api.post('/tasks/create', {
      title: 'Follow up',
      association: { chat_id: alice },
      priority: 3,
      assignee: 'Amy@Example.com',
      due_date: '2026-12-01 18:00:00+00',
      notes: 'VIP',
    });
    expect(chat.status).toBe(200);
    expect(TaskSchema.safeParse(chat.body).success).toBe(true);
    expect(chat.body).toMatchObject({
      type: 'chat',
      chat_id: chatA,
      priority: 3,
      assignee: 'amy@example.com',
      due_date: '2026-12-01T18:00:00.000Z',
      status: 'open',
      org_id: w.org.id,
      associated_object_metadata: { type: 'chat', id: chatA },
    });
    const msg = await api.post('/tasks/create', { title: 'Answer', type: 'message', association: { chat_id: alice, message_id: w.m1 } });
    expect(msg.body).toMatchObject({
      type: 'message',
      association: { type: 'message', chat_id: chatA, message_id: w.m1, ticket_id: null },
    });
    const tk = await api.post('/tasks/create', { title: 'Ticket work', association: { ticket_id: w.ticket } });
    expect(tk.body).toMatchObject({ type: 'ticket', chat_id: chatB, association: { ticket_id: w.ticket } });
    const todo = await api.post('/tasks/create', { title: 'Order stickers' });
    expect(todo.body).toMatchObject({ type: 'todo', association: null });
    Object.assign(w, { chat: chat.body.task_id, msg: msg.body.task_id, tk: tk.body.task_id, todo: todo.body.task_id });
    const created = await events('task.created');
    expect(created.map((e) => (registryPayload(e) as any).task_id)).toEqual([w.chat, w.msg, w.tk, w.todo]);
    expect(created.map((e) => e.phone_id)).toEqual([w.p1, w.p1, w.p2, null]);
  });

  it.each([
    [{}, 'body.title'],
    [{ title: ' ' }, 'body.title'],
    [{ title: 'x'.repeat(501) }, 'body.title'],
    [{ title: 'x', type: 'note' }, 'body.type'],
    [{ title: 'x', type: 'chat' }, 'body.association'],
    [{ title: 'x', type: 'ticket', association: { chat_id: '919876543210' } }, 'body.type'],
    [{ title: 'x', association: 'chat' }, 'body.association'],
    [{ title: 'x', association: {} }, 'body.association'],
    [{ title: 'x', association: { chat_id: 'nope' } }, 'body.association.chat_id'],
    [{ title: 'x', association: { message_id: 'm' } }, 'body.association.chat_id'],
    [{ title: 'x', association: { ticket_id: 'nope' } }, 'body.association.ticket_id'],
    [
      { title: 'x', association: { ticket_id: '6f1c1b1e-0000-4000-8000-000000000000', chat_id: '919876543210' } },
      'body.association.ticket_id',
    ],
    [{ title: 'x', notes: 5 }, 'body.notes'],
    [{ title: 'x', assignee: 'amy' }, 'body.assignee'],
    [{ title: 'x', due_date: 'tomorrow' }, 'body.due_date'],
    [{ title: 'x', remind_at: 'later' }, 'body.remind_at'],
    [{ title: 'x', priority: 5 }, 'body.priority'],
    [{ title: 'x', priority: 0 }, 'body.priority'],
    [{ title: 'x', status: 'archived' }, 'body.status'],
  ])('POST /tasks/create: 422 for %j on %s, nothing created', async (body, field) => {
    const before = await stack.prisma.inboxTask.count();
    expect422(await api.post('/tasks/create', body), field);
    expect(await stack.prisma.inboxTask.count()).toBe(before);
  });

  it("POST /tasks/create: a message of another chat is 422; another organization's chat or ticket 404; a scoped token 401/404", async () => {
    const before = await stack.prisma.inboxTask.count();
    expect422(
      await api.post('/tasks/create', { title: 'x', association: { chat_id: bob, message_id: w.m1 } }),
      'body.association.message_id',
    );
    expect404(await other.post('/tasks/create', { title: 'x', association: { chat_id: alice } }));
    expect404(await other.post('/tasks/create', { title: 'x', association: { ticket_id: w.ticket } }));
    expect404(await scoped.post('/tasks/create', { title: 'x', association: { ticket_id: w.ticket } }));
    expect404(await scoped.post('/tasks/create', { title: 'x', association: { chat_id: bob } }));
    const res = await scoped.post('/tasks/create', { title: 'x' }, { 'x-phone': w.p2 });
    expect(res.status).toBe(401);
    expectEnvelope(res.body, 'UNAUTHORIZED_ERROR', 401);
    expect(await stack.prisma.inboxTask.count()).toBe(before);
  });

  it('GET /tasks: newest first, every filter, paged; narrowed to reach; another organization sees none', async () => {
    const all = await api.get('/tasks');
    expect(all.status).toBe(200);
    expect(ListTasksResponse.safeParse(all.body).success).toBe(true);
    expect(all.body).toMatchObject({ from: 1, to: 4, count: 4 });
    expect(ids(all)).toEqual([w.todo, w.tk, w.msg, w.chat]);
    expect(ids(await api.get('/tasks?assignee=amy@example.com&status=open&priority=3'))).toEqual([w.chat]);
    expect(ids(await api.get(`/tasks?chat_id=${alice}`))).toEqual([w.msg, w.chat]);
    expect(ids(await api.get(`/tasks?ticket_id=${w.ticket}`))).toEqual([w.tk]);
    expect(ids(await api.get('/tasks?type=todo'))).toEqual([w.todo]);
    expect(ids(await api.get('/tasks?due_after=2026-12-01&due_before=2026-12-01'))).toEqual([w.chat]);
    expect(ids(await api.get('/tasks?due_before=2026-11-30'))).toEqual([]);
    expect((await api.get('/tasks?offset=1&limit=2')).body).toMatchObject({ from: 2, to: 3, count: 2 });
    expect(ids(await scoped.get('/tasks'))).toEqual([w.todo, w.msg, w.chat]);
    expect(ids(await api.get('/tasks', { 'x-phone': w.p2 }))).toEqual([w.todo, w.tk]);
    expect((await other.get('/tasks')).body).toEqual({ from: 0, to: 0, count: 0, tasks: [] });
    expect((await scoped.get('/tasks', { 'x-phone': w.p2 })).status).toBe(401);
  });

  it.each([
    ['limit=2001', 'limit'],
    ['offset=-1', 'offset'],
    ['status=archived', 'status'],
    ['assignee=nobody', 'assignee'],
    ['priority=7', 'priority'],
    ['type=note', 'type'],
    ['chat_id=xyz', 'chat_id'],
    ['ticket_id=nope', 'ticket_id'],
    ['due_before=soon', 'due_before'],
    ['due_after=soon', 'due_after'],
    ['due_before=2025-01-01&due_after=2025-02-01', 'due_before'],
  ])('GET /tasks: 422 for %s', async (q, field) => {
    expect422(await api.get(`/tasks?${q}`), field);
  });

  it("GET /tasks/{task_id}: in reach only; another organization's, a missing one 404; a malformed id 422", async () => {
    expect((await api.get(`/tasks/${w.chat}`)).body).toMatchObject({ task_id: w.chat, title: 'Follow up' });
    expect((await scoped.get(`/tasks/${w.todo}`)).status).toBe(200);
    expect404(await scoped.get(`/tasks/${w.tk}`));
    expect404(await other.get(`/tasks/${w.chat}`));
    expect404(await api.get('/tasks/6f1c1b1e-0000-4000-8000-000000000000'));
    expect422(await api.get('/tasks/not-a-uuid'), 'task_id');
    expect((await scoped.get(`/tasks/${w.chat}`, { 'x-phone': w.p2 })).status).toBe(401);
  });

  it('PATCH /tasks/{task_id}: changes fields with task.updated; a remind_at fires task.reminder once at its time', async () => {
    const at = new Date(Date.now() + 1_500).toISOString();
    const res = await api.patch(`/tasks/${w.chat}`, { title: 'Follow up!', remind_at: at, priority: '4', assignee: null, notes: '' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ title: 'Follow up!', remind_at: at, priority: 4, assignee: null, notes: null });
    const [updated] = await events('task.updated');
    expect(updated.previous_attributes).toMatchObject({
      title: 'Follow up',
      remind_at: null,
      priority: 3,
      assignee: 'amy@example.com',
      notes: 'VIP',
    });
    const [reminder] = await until(
      () => events('task.reminder'),
      (e) => e.length > 0,
      10_000,
      'the reminder fired',
    );
    expect(registryPayload(reminder)).toMatchObject({ task_id: w.chat, remind_at: at });
    expect(reminder.created_at.getTime()).toBeGreaterThanOrEqual(new Date(at).getTime());
    expect(reminder.created_at.getTime() - new Date(at).getTime()).toBeLessThan(3_000);
    const closed = await api.patch(`/tasks/${w.chat}`, { status: 'closed' });
    expect(closed.body.completed_metadata).toMatchObject({ completed_at: expect.any(String) });
    await new Promise((r) => setTimeout(r, 500));
    expect(await events('task.reminder')).toHaveLength(1);
  });

  it.each([
    [{ priority: 9 }, 'body.priority'],
    [{ status: 'gone' }, 'body.status'],
    [{ assignee: 'x' }, 'body.assignee'],
    [{ due_date: 'never' }, 'body.due_date'],
    [{ remind_at: 'never' }, 'body.remind_at'],
    [{ title: '' }, 'body.title'],
    [{ notes: 1 }, 'body.notes'],
    [{ reminder_setting: { repeat: { frequency: 1, interval: 'hours' } } }, 'body.reminder_setting.repeat.interval'],
    [{ reminder_setting: { repeat: { frequency: 0, interval: 'days' } } }, 'body.reminder_setting.repeat.frequency'],
    [{ reminder_setting: { repeat: { frequency: 1, interval: 'days', end: 'after' } } }, 'body.reminder_setting.repeat.on'],
    [{ reminder_setting: { repeat: { frequency: 1, interval: 'days' } } }, 'body.reminder_setting.repeat'],
    [{ reminder_setting: { remind_in: '1 days before' } }, 'body.reminder_setting.remind_in'],
    [{ reminder_setting: 'daily' }, 'body.reminder_setting'],
  ])('PATCH /tasks/{task_id}: 422 for %j', async (body, field) => {
    expect422(await api.patch(`/tasks/${w.todo}`, body), field);
  });

  it('a repeating reminder fires once per occurrence and arms the next; the event shows the occurrence that fired', async () => {
    const at = new Date(Date.now() + 1_000).toISOString();
    const repeat = { frequency: 1, interval: 'days', end: 'after', on: 3 };
    const res = await api.post('/tasks/create', {
      title: 'Daily check',
      association: { chat_id: alice },
      remind_at: at,
      reminder_setting: { repeat },
    });
    expect(res.status).toBe(200);
    expect(res.body.reminder_setting).toEqual({ remind_in: null, repeat: { ...repeat, on: '3' } });
    const id = res.body.task_id;
    const mine = async () => (await events('task.reminder')).filter((e) => (e.payload as any).task_id === id);
    const [fired] = await until(mine, (e) => e.length > 0, 10_000, 'the first occurrence fired');
    expect(registryPayload(fired)).toMatchObject({ task_id: id, remind_at: at });
    const next = new Date(new Date(at).getTime() + 86_400_000).toISOString();
    await until(
      () => api.get(`/tasks/${id}`),
      (r) => r.body.remind_at === next,
      5_000,
      'the next occurrence armed',
    );
    await new Promise((r) => setTimeout(r, 800));
    expect(await mine()).toHaveLength(1);
    // a task without remind_at cannot repeat; another organization's task is 404 and unchanged
    expect422(await api.post('/tasks/create', { title: 'x', reminder_setting: { repeat } }), 'body.reminder_setting.repeat');
    expect404(await other.patch(`/tasks/${id}`, { reminder_setting: null }));
    expect404(await scoped.patch(`/tasks/${w.tk}`, { reminder_setting: { repeat } }));
    expect((await api.get(`/tasks/${id}`)).body.reminder_setting).toEqual({ remind_in: null, repeat: { ...repeat, on: '3' } });
    // stopping the repeat keeps the armed occurrence, once
    const stopped = await api.patch(`/tasks/${id}`, { reminder_setting: null });
    expect(stopped.body).toMatchObject({ reminder_setting: null, remind_at: next });
    expect(registryPayload((await events('task.updated')).at(-1) as any)).toMatchObject({ task_id: id, reminder_setting: null });
  });

  it('remind_in: remind_at set from the due date, and moved with it; remind_at beside it or no due date is 422', async () => {
    const res = await api.post('/tasks/create', {
      title: 'Call back',
      due_date: '2030-05-01T10:00:00Z',
      reminder_setting: { remind_in: '90 Minutes before' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      remind_at: '2030-05-01T08:30:00.000Z',
      reminder_setting: { remind_in: '90 minutes before', repeat: null },
    });
    const moved = await api.patch(`/tasks/${res.body.task_id}`, { due_date: '2030-05-02T10:00:00Z' });
    expect(moved.body).toMatchObject({ due_date: '2030-05-02T10:00:00.000Z', remind_at: '2030-05-02T08:30:00.000Z' });
    expect((await events('task.updated')).at(-1)?.previous_attributes).toMatchObject({
      due_date: '2030-05-01T10:00:00.000Z',
      remind_at: '2030-05-01T08:30:00.000Z',
    });
    expect422(await api.patch(`/tasks/${res.body.task_id}`, { remind_at: '2030-05-02T09:00:00Z' }), 'body.remind_at');
    expect422(await api.patch(`/tasks/${res.body.task_id}`, { due_date: null }), 'body.due_date');
    expect422(
      await api.post('/tasks/create', { title: 'x', reminder_setting: { remind_in: '1 days before' } }),
      'body.reminder_setting.remind_in',
    );
    expect422(
      await api.post('/tasks/create', { title: 'x', due_date: '2030-01-01', reminder_setting: { remind_in: 'tomorrow' } }),
      'body.reminder_setting.remind_in',
    );
    expect((await api.get(`/tasks/${res.body.task_id}`)).body.remind_at).toBe('2030-05-02T08:30:00.000Z');
  });

  it("PATCH and DELETE: another organization's task and one outside a scoped token's phones are 404 and unchanged", async () => {
    const before = await stack.prisma.inboxTask.findUniqueOrThrow({ where: { task_id: w.tk } });
    expect404(await other.patch(`/tasks/${w.tk}`, { title: 'hijacked' }));
    expect404(await scoped.patch(`/tasks/${w.tk}`, { title: 'hijacked' }));
    expect404(await other.delete(`/tasks/${w.tk}`));
    expect404(await scoped.delete(`/tasks/${w.tk}`));
    expect((await scoped.delete(`/tasks/${w.tk}`, { 'x-phone': w.p2 })).status).toBe(401);
    expect(await stack.prisma.inboxTask.findUniqueOrThrow({ where: { task_id: w.tk } })).toEqual(before);
  });

  it('DELETE /tasks/{task_id}: answers the task, emits task.deleted, cancels its reminder; then 404', async () => {
    await api.patch(`/tasks/${w.todo}`, { remind_at: new Date(Date.now() + 800).toISOString() });
    const res = await api.delete(`/tasks/${w.todo}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ task_id: w.todo, title: 'Order stickers' });
    const [deleted] = await events('task.deleted');
    expect(registryPayload(deleted)).toEqual(res.body);
    expect404(await api.get(`/tasks/${w.todo}`));
    expect404(await api.delete(`/tasks/${w.todo}`));
    await new Promise((r) => setTimeout(r, 1_500));
    expect((await events('task.reminder')).map((e) => (e.payload as any).task_id)).not.toContain(w.todo);
  });
});
