import { createOrg, newUuid, randomDigits, useTestDatabase } from '@mapi/testing';
import { fireDueReminders } from '../../reminders/due-reminders';
import { chatsOf, importCtx, outcomes, type HeldChat } from '../../testing/import-stand-ins';
import { ImportTasks } from './import-tasks.usecase';

/** inbox.v1.import.tasks against Postgres, and the reminder poller's round over what it wrote. */
describe('import tasks (integration)', () => {
  const t = useTestDatabase('inbox_import_tasks');
  const w: Record<string, string> = {};
  const held: HeldChat[] = [];
  const run = (org: string, items: unknown[]) => new ImportTasks(t.prisma, chatsOf(held)).execute({ ctx: importCtx(org), body: { items } });
  const row = (id: string) => t.prisma.inboxTask.findUnique({ where: { task_id: id } });
  const past = '2024-01-10T09:00:00.000Z';
  /** A GET /tasks item of the source, ids already ours. */
  const task = (id: string, over: Record<string, unknown> = {}) => ({
    source_id: id,
    task_id: id,
    org_id: newUuid(),
    type: 'chat',
    title: 'Call back',
    notes: 'about the refund',
    status: 'open',
    priority: 2,
    assignee: 'Amy@Example.com',
    due_date: '2024-01-11T00:00:00.000Z',
    remind_at: past,
    reminder_setting: null,
    associated_object_metadata: { chat_name: 'Bob' },
    completed_metadata: null,
    created_by: 'amy@example.com',
    created_at: '2024-01-01T00:00:00.000Z',
    last_updated_by: 'bob@example.com',
    last_updated_at: '2024-01-02T00:00:00.000Z',
    chat_id: w.chatA,
    association: { type: 'chat', chat_id: w.chatA, message_id: null, ticket_id: null },
    ...over,
  });

  beforeAll(async () => {
    w.org = (await createOrg(t.prisma)).id;
    w.other = (await createOrg(t.prisma)).id;
    [w.p1, w.q1, w.chatA] = ['phone-imp-task-1', 'phone-imp-task-q', `${randomDigits()}@c.us`];
    held.push({ org: w.org, phone: w.p1, chat: w.chatA }, { org: w.other, phone: w.q1, chat: w.chatA });
    [w.k1, w.k2, w.k3, w.k4, w.ticket, w.theirTicket, w.taken] = Array.from({ length: 7 }, newUuid);
    await t.prisma.inboxTicket.create({ data: { ticket_id: w.ticket, org_id: w.org, phone_id: w.p1, chat_id: w.chatA, subject: 'Ours' } });
    await t.prisma.inboxTicket.create({
      data: { ticket_id: w.theirTicket, org_id: w.other, phone_id: w.q1, chat_id: w.chatA, subject: 'Theirs' },
    });
    await t.prisma.inboxTask.create({
      data: { task_id: w.taken, org_id: w.other, type: 'todo', title: 'theirs', created_by: 'x', last_updated_by: 'x' },
    });
  });

  it('creates tasks at their ids with their fields, dates and associations, and no event', async () => {
    const r = await run(w.org, [
      task(w.k1),
      task(w.k2, {
        type: 'ticket',
        chat_id: null,
        association: { type: 'ticket', ticket_id: w.ticket },
        status: 'closed',
        completed_metadata: { completed_at: '2024-01-03T00:00:00.000Z', completed_by: 'amy@example.com' },
      }),
      task(w.k3, { type: 'todo', chat_id: null, association: null, remind_at: null }),
    ]);
    expect(outcomes(r)).toEqual(['created', 'created', 'created']);
    expect(r.results.map((x) => x.target_id)).toEqual([w.k1, w.k2, w.k3]);
    expect(await row(w.k1)).toMatchObject({
      org_id: w.org,
      phone_id: w.p1,
      type: 'chat',
      chat_id: w.chatA,
      title: 'Call back',
      notes: 'about the refund',
      status: 'open',
      priority: 2,
      assignee: 'amy@example.com',
      due_date: new Date('2024-01-11T00:00:00.000Z'),
      associated_object_metadata: { chat_name: 'Bob' },
      created_by: 'amy@example.com',
      created_at: new Date('2024-01-01T00:00:00.000Z'),
      last_updated_by: 'bob@example.com',
      last_updated_at: new Date('2024-01-02T00:00:00.000Z'),
    });
    expect(await row(w.k2)).toMatchObject({
      type: 'ticket',
      ticket_id: w.ticket,
      chat_id: w.chatA,
      phone_id: w.p1,
      status: 'closed',
      completed_at: new Date('2024-01-03T00:00:00.000Z'),
      completed_by: 'amy@example.com',
    });
    expect(await row(w.k3)).toMatchObject({ type: 'todo', phone_id: null, chat_id: null, remind_at: null });
    expect(await t.prisma.outboxEvent.count({ where: { org_id: w.org } })).toBe(0);
  });

  it('stores a reminder already past as fired: the poller never fires it', async () => {
    expect(await row(w.k1)).toMatchObject({ remind_at: new Date(past), reminder_fired_at: new Date(past) });
    const round = await fireDueReminders(t.prisma, 500);
    expect(round.fired.map((x) => x.task_id)).toEqual([]);
    expect(await t.prisma.outboxEvent.count({ where: { type: 'task.reminder' } })).toBe(0);
  });

  it("arms a future reminder as any task's (it fires when due, once), and a rerun after it fired leaves it fired", async () => {
    const soon = new Date(Date.now() + 1500).toISOString();
    expect(outcomes(await run(w.org, [task(w.k4, { remind_at: soon })]))).toEqual(['created']);
    expect(await row(w.k4)).toMatchObject({ remind_at: new Date(soon), reminder_fired_at: null });
    await new Promise((r) => setTimeout(r, 1700));
    expect((await fireDueReminders(t.prisma, 500)).fired.map((x) => x.task_id)).toEqual([w.k4]);
    expect(outcomes(await run(w.org, [task(w.k4, { remind_at: soon })]))).toEqual(['skipped']);
    expect((await fireDueReminders(t.prisma, 500)).fired).toEqual([]);
    expect(await t.prisma.outboxEvent.count({ where: { type: 'task.reminder' } })).toBe(1);
  });

  it('arms a repeating series whose time has passed at its next occurrence after now', async () => {
    const id = newUuid();
    const setting = { remind_in: null, repeat: { frequency: 1, interval: 'days', end: 'never', on: null } };
    await run(w.org, [task(id, { remind_at: past, reminder_setting: setting })]);
    const r = await row(id);
    expect(r?.reminder_fired_at).toBeNull();
    expect(r?.remind_at!.getTime()).toBeGreaterThan(Date.now());
    expect(r?.remind_at!.getTime()).toBeLessThanOrEqual(Date.now() + 86_400_000);
    expect(r?.reminder_series_at).toEqual(new Date(past));
    expect(outcomes(await run(w.org, [task(id, { remind_at: past, reminder_setting: setting })]))).toEqual(['skipped']);
  });

  it('answers the same batch again with skipped and makes nothing; a change is updated', async () => {
    const before = await t.prisma.inboxTask.count();
    expect(
      outcomes(await run(w.org, [task(w.k1), task(w.k3, { type: 'todo', chat_id: null, association: null, remind_at: null })])),
    ).toEqual(['skipped', 'skipped']);
    expect(await t.prisma.inboxTask.count()).toBe(before);
    expect((await run(w.org, [task(w.k1, { title: 'Call back today', status: 'inprogress' })])).results[0]).toMatchObject({
      target_id: w.k1,
      outcome: 'updated',
    });
    expect(await row(w.k1)).toMatchObject({ title: 'Call back today', status: 'inprogress', reminder_fired_at: new Date(past) });
  });

  it("honours target_id, and gives a new id when the source id is another organization's task, which stays as it was", async () => {
    const mapped = newUuid();
    const r = await run(w.org, [{ ...task('T-1'), target_id: mapped }, task(w.taken)]);
    expect(r.results[0]).toEqual({ source_id: 'T-1', target_id: mapped, outcome: 'created' });
    expect(r.results[1].target_id).not.toBe(w.taken);
    expect(await row(w.taken)).toMatchObject({ org_id: w.other, title: 'theirs' });
  });

  it("fails a bad item with its reason while the rest lands; another organization's ticket or chat is not theirs to name", async () => {
    const good = newUuid();
    const r = await run(w.org, [
      task('b1', { title: '' }),
      task('b2', { status: 'done' }),
      task('b3', { type: 'ticket', association: { ticket_id: w.theirTicket } }),
      task('b4', { chat_id: `${randomDigits()}@c.us`, association: null }),
      task('b5', { type: 'message', association: { chat_id: w.chatA } }),
      task(good),
    ]);
    expect(outcomes(r)).toEqual(['failed', 'failed', 'failed', 'failed', 'failed', 'created']);
    expect(r.results[0].reason).toMatch(/title/);
    expect(r.results[1].reason).toMatch(/status/);
    expect(r.results[2].reason).toMatch(/not a ticket of this organization/);
    expect(r.results[3].reason).toMatch(/no phone of this organization holds the chat/);
    expect(r.results[4].reason).toMatch(/message_id/);
    expect(await row(good)).toMatchObject({ org_id: w.org });
    expect(await t.prisma.inboxTask.findMany({ where: { org_id: w.other } })).toHaveLength(1);
  });
});
