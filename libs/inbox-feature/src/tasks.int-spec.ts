import { Errors, ServiceError, type ChatView, type Message, type RequestContext } from '@mapi/contracts';
import { createOrg, newUuid, randomDigits, registryPayload, useTestDatabase } from '@mapi/testing';
import { phonesInReach, type ChatLookup } from './chat-lookup';
import { TaskRepository } from './repositories/task-repository';
import { TicketRepository } from './repositories/ticket-repository';
import { CreateTask } from './usecases/create-task/create-task.usecase';
import { DeleteTask } from './usecases/delete-task/delete-task.usecase';
import { GetTask } from './usecases/get-task/get-task.usecase';
import { ListTasks } from './usecases/list-tasks/list-tasks.usecase';
import { UpdateTask } from './usecases/update-task/update-task.usecase';
import { noReach } from './testing/no-reach';

/**
 * Tasks against Postgres: the use cases, reach and organization isolation. The chats service is the
 * boundary (an in-memory lookup with GET /chats/{chat_id}'s rule); test/e2e/inbox-tasks runs the real one.
 */
describe('inbox tasks (integration)', () => {
  const t = useTestDatabase('inbox_tasks');
  const w: Record<string, any> = {};
  const views: ChatView[] = [];
  const messages: Message[] = [];
  const chats: ChatLookup = {
    chat: async (ctx, chatId) => {
      const reach = phonesInReach(ctx);
      const view = views.find((v) => v.org_id === ctx.org_id && v.chat_id === chatId && (!reach || reach.includes(v.phone_id)));
      if (!view) throw Errors.notFound('Chat not found');
      return view;
    },
    message: async (_ctx, phoneId, messageId) =>
      messages.find((m) => (m as any).phone_id === phoneId && m.message_id === messageId) ?? null,
  };
  const tasks = () => new TaskRepository(t.prisma);
  const ctx = (org: string, scope: string[] | null = null, phone: string | null = null): RequestContext => ({
    org_id: org,
    token_id: w.token,
    phone_scope: scope,
    phone: phone ? { phone_id: phone, org_phone: null } : null,
  });
  const view = (org: string, phone: string, chatId: string) =>
    ({
      chat_id: chatId,
      org_id: org,
      phone_id: phone,
      org_phone: `${phone.slice(-6)}@c.us`,
      label_ids: {},
      message_unread_count: 0,
      created_at: new Date().toISOString(),
      updated_at: new Date().toISOString(),
    }) as unknown as ChatView;
  const create = (c: RequestContext, body: Record<string, unknown>) =>
    new CreateTask(tasks(), new TicketRepository(t.prisma), chats).execute({ ctx: c, body: body as any });
  const list = (c: RequestContext, query: Record<string, unknown> = {}) =>
    new ListTasks(tasks(), noReach).execute({ ctx: c, query: { offset: 0, limit: 2000, ...query } });
  const get = (c: RequestContext, id: string) => new GetTask(tasks(), noReach).execute({ ctx: c, params: { task_id: id } });
  const update = (c: RequestContext, id: string, body: Record<string, unknown>) =>
    new UpdateTask(tasks(), noReach).execute({ ctx: c, params: { task_id: id }, body });
  const remove = (c: RequestContext, id: string) => new DeleteTask(tasks(), noReach).execute({ ctx: c, params: { task_id: id } });
  const events = (org: string, type: string) => t.prisma.outboxEvent.findMany({ where: { org_id: org, type }, orderBy: { seq: 'asc' } });
  const ids = (r: { tasks: { task_id: string }[] }) => r.tasks.map((x) => x.task_id);
  const status = async (p: Promise<unknown>) => {
    const err = await p.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ServiceError);
    return (err as ServiceError).status;
  };

  beforeAll(async () => {
    w.org = (await createOrg(t.prisma)).id;
    w.other = (await createOrg(t.prisma)).id;
    w.token = newUuid();
    [w.p1, w.p2, w.q1] = ['phone-aaaaaaaaaaaa1', 'phone-aaaaaaaaaaaa2', 'phone-bbbbbbbbbbbb1'];
    [w.a, w.b] = [`${randomDigits()}@c.us`, `${randomDigits()}@c.us`];
    views.push(view(w.org, w.p1, w.a), view(w.org, w.p2, w.b), view(w.other, w.q1, w.a));
    w.m1 = `false_${w.a}_AAA`;
    messages.push({ message_id: w.m1, chat_id: w.a, org_phone: 'x@c.us', sender_phone: '123', phone_id: w.p1 } as unknown as Message);
    w.ticket = newUuid();
    await new TicketRepository(t.prisma).insert(t.prisma, w.org, {
      ticket_id: w.ticket,
      phone_id: w.p2,
      chat_id: w.b,
      subject: 's',
      status: 'open',
      priority: 1,
      assignee: null,
      assigned_by: null,
      first_assigned_at: null,
      raised_by: null,
      quoted_message_id: null,
      attached_message_ids: [],
      due_date: null,
      labels: [],
      last_updated_by: null,
    });
  });

  it("creates a todo with its defaults and task.created carrying the registry's object", async () => {
    const task = await create(ctx(w.org), { title: 'Call back' });
    expect(task).toMatchObject({
      type: 'todo',
      title: 'Call back',
      status: 'open',
      priority: 1,
      notes: null,
      chat_id: null,
      association: null,
      associated_object_metadata: null,
      completed_metadata: null,
      created_by: w.token,
      remind_at: null,
    });
    const [event] = await events(w.org, 'task.created');
    expect(registryPayload(event)).toEqual(task);
    expect(event.phone_id).toBeNull();
    w.todo = task.task_id;
  });

  it('associates a chat, a message of it, or a ticket, each as its phone holds it (AssociatedObjectMetadataType)', async () => {
    const chat = await create(ctx(w.org), {
      title: 'Chat',
      association: { chat_id: w.a },
      priority: 4,
      assignee: 'amy@example.com',
      due_date: '2026-01-02T00:00:00.000Z',
    });
    expect(chat).toMatchObject({
      type: 'chat',
      chat_id: w.a,
      association: { type: 'chat', chat_id: w.a, message_id: null, ticket_id: null },
      associated_object_metadata: { type: 'chat', index: 'chat_id', id: w.a, object: { chat_id: w.a, org_id: w.org } },
    });
    const msg = await create(ctx(w.org), { title: 'Msg', association: { chat_id: w.a, message_id: w.m1 }, status: 'closed' });
    expect(msg).toMatchObject({
      type: 'message',
      chat_id: w.a,
      association: { message_id: w.m1 },
      associated_object_metadata: { type: 'message', index: 'message_id', id: w.m1, object: { message_id: w.m1, is_private_note: false } },
    });
    expect(msg.completed_metadata).toMatchObject({ completed_by: w.token });
    const tk = await create(ctx(w.org), { title: 'Ticket', association: { ticket_id: w.ticket } });
    expect(tk).toMatchObject({
      type: 'ticket',
      chat_id: w.b,
      association: { type: 'ticket', ticket_id: w.ticket, chat_id: w.b },
      associated_object_metadata: { type: 'ticket', index: 'ticket_id', id: w.ticket },
    });
    expect((await t.prisma.inboxTask.findUniqueOrThrow({ where: { task_id: tk.task_id } })).phone_id).toBe(w.p2);
    Object.assign(w, { chatTask: chat.task_id, msgTask: msg.task_id, ticketTask: tk.task_id });
  });

  it("refuses objects out of reach or another organization's (404) and a message of another chat (422), writing nothing", async () => {
    const before = await t.prisma.inboxTask.count();
    expect(await status(create(ctx(w.org, [w.p2]), { title: 'x', association: { chat_id: w.a } }))).toBe(404);
    expect(await status(create(ctx(w.org, [w.p1]), { title: 'x', association: { ticket_id: w.ticket } }))).toBe(404);
    expect(await status(create(ctx(w.other), { title: 'x', association: { ticket_id: w.ticket } }))).toBe(404);
    expect(await status(create(ctx(w.other), { title: 'x', association: { chat_id: w.b } }))).toBe(404);
    expect(await status(create(ctx(w.org), { title: 'x', association: { chat_id: w.b, message_id: w.m1 } }))).toBe(422);
    expect(await t.prisma.inboxTask.count()).toBe(before);
  });

  it('lists newest first with every filter, narrowed to the phones in reach (todos always) and the organization', async () => {
    const theirs = await create(ctx(w.other), { title: 'Theirs', association: { chat_id: w.a } });
    expect(ids(await list(ctx(w.org)))).toEqual([w.ticketTask, w.msgTask, w.chatTask, w.todo]);
    expect(await list(ctx(w.org), { offset: 1, limit: 2 })).toMatchObject({ from: 2, to: 3, count: 2 });
    expect(ids(await list(ctx(w.org), { status: 'closed' }))).toEqual([w.msgTask]);
    expect(ids(await list(ctx(w.org), { assignee: 'amy@example.com' }))).toEqual([w.chatTask]);
    expect(ids(await list(ctx(w.org), { priority: 4 }))).toEqual([w.chatTask]);
    expect(ids(await list(ctx(w.org), { type: 'todo' }))).toEqual([w.todo]);
    expect(ids(await list(ctx(w.org), { chat_id: w.a }))).toEqual([w.msgTask, w.chatTask]);
    expect(ids(await list(ctx(w.org), { chat_id: w.b }))).toEqual([w.ticketTask]);
    expect(ids(await list(ctx(w.org), { ticket_id: w.ticket }))).toEqual([w.ticketTask]);
    expect(ids(await list(ctx(w.org), { due_before: '2026-01-02T00:00:00.000Z' }))).toEqual([w.chatTask]);
    expect(ids(await list(ctx(w.org), { due_after: '2026-01-02T00:00:00.001Z' }))).toEqual([]);
    expect(ids(await list(ctx(w.org, [w.p1])))).toEqual([w.msgTask, w.chatTask, w.todo]);
    expect(ids(await list(ctx(w.org, null, w.p2)))).toEqual([w.ticketTask, w.todo]);
    expect(ids(await list(ctx(w.other)))).toEqual([theirs.task_id]);
    w.theirs = theirs.task_id;
  });

  it("reads one task in reach; out of reach, missing and another organization's are 404", async () => {
    expect(await get(ctx(w.org), w.chatTask)).toMatchObject({ task_id: w.chatTask, title: 'Chat' });
    expect(await get(ctx(w.org, [w.p2]), w.todo)).toMatchObject({ task_id: w.todo });
    expect(await status(get(ctx(w.org, [w.p2]), w.chatTask))).toBe(404);
    expect(await status(get(ctx(w.other), w.chatTask))).toBe(404);
    expect(await status(get(ctx(w.org), w.theirs))).toBe(404);
    expect(await status(get(ctx(w.org), newUuid()))).toBe(404);
  });

  it('updates only what changes (task.updated with previous_attributes); a new remind_at re-arms; closing/reopening sets/clears completed_metadata', async () => {
    const at = new Date(Date.now() + 3_600_000).toISOString();
    const done = await update(ctx(w.org), w.chatTask, { title: 'Chat!', notes: 'n', remind_at: at, status: 'closed', assignee: null });
    expect(done).toMatchObject({
      title: 'Chat!',
      notes: 'n',
      remind_at: at,
      status: 'closed',
      assignee: null,
      completed_metadata: { completed_by: w.token },
    });
    const [event] = await events(w.org, 'task.updated');
    expect(registryPayload(event)).toEqual(done);
    expect(event.previous_attributes).toMatchObject({
      title: 'Chat',
      notes: null,
      remind_at: null,
      status: 'open',
      assignee: 'amy@example.com',
      completed_metadata: null,
    });
    await t.prisma.inboxTask.update({ where: { task_id: w.chatTask }, data: { reminder_fired_at: new Date() } });
    const reopened = await update(ctx(w.org), w.chatTask, { status: 'open', remind_at: new Date(Date.now() + 7_200_000).toISOString() });
    expect(reopened.completed_metadata).toBeNull();
    expect((await t.prisma.inboxTask.findUniqueOrThrow({ where: { task_id: w.chatTask } })).reminder_fired_at).toBeNull();
    const count = (await events(w.org, 'task.updated')).length;
    expect(await update(ctx(w.org), w.chatTask, { title: 'Chat!' })).toEqual(reopened);
    expect(await events(w.org, 'task.updated')).toHaveLength(count);
  });

  it('another organization and a phone out of reach change and delete nothing (404)', async () => {
    const before = await t.prisma.inboxTask.findUniqueOrThrow({ where: { task_id: w.chatTask } });
    expect(await status(update(ctx(w.other), w.chatTask, { title: 'hijacked' }))).toBe(404);
    expect(await status(update(ctx(w.org, [w.p2]), w.chatTask, { title: 'hijacked' }))).toBe(404);
    expect(await status(remove(ctx(w.other), w.chatTask))).toBe(404);
    expect(await status(remove(ctx(w.org, null, w.p2), w.chatTask))).toBe(404);
    expect(await t.prisma.inboxTask.findUniqueOrThrow({ where: { task_id: w.chatTask } })).toEqual(before);
  });

  it('deletes a task in reach, answering it as it was, with task.deleted; then it is gone (404)', async () => {
    const gone = await remove(ctx(w.org, [w.p1]), w.msgTask);
    expect(gone).toMatchObject({ task_id: w.msgTask, title: 'Msg' });
    const [event] = await events(w.org, 'task.deleted');
    expect(registryPayload(event)).toEqual(gone);
    expect(await status(get(ctx(w.org), w.msgTask))).toBe(404);
    expect(await status(remove(ctx(w.org), w.msgTask))).toBe(404);
  });
});
