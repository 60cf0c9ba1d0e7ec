import { createPrismaClient, type PrismaClient } from '@mapi/db';
import { createOrg, newUuid, registryPayload, useTestDatabase } from '@mapi/testing';
import pino from 'pino';
import { TaskRepository } from '../repositories/task-repository';
import { UpdateTask } from '../usecases/update-task/update-task.usecase';
import { fireDueReminders } from './due-reminders';
import { ReminderPoller } from './reminder-poller';
import { noReach } from '../testing/no-reach';

/**
 * Reminders against Postgres: two claimers on their own connections race over the same due reminders
 * and each fires exactly once; closed, fired, future and deleted ones do not fire; a new remind_at
 * fires again; each event names its own organization; the poller fires at remind_at, woken by the
 * announcement of a reminder armed after it went to sleep.
 */
describe('task reminders (integration)', () => {
  let a: PrismaClient;
  let b: PrismaClient;
  let poller: ReminderPoller | undefined;
  afterAll(async () => {
    await poller?.stop();
    await a?.$disconnect();
    await b?.$disconnect();
  });
  const t = useTestDatabase('inbox_reminders', { poolSize: 4 });
  const w: Record<string, any> = {};
  const logger = pino({ level: 'silent' });

  const insertTasks = async (org: string, n: number, remindAt: (i: number) => Date | null, extra: Record<string, unknown> = {}) => {
    const rows = Array.from({ length: n }, (_, i) => ({
      task_id: newUuid(),
      org_id: org,
      type: 'todo',
      title: `t${i}`,
      remind_at: remindAt(i),
      created_by: 'tok',
      last_updated_by: 'tok',
      ...extra,
    }));
    await t.prisma.inboxTask.createMany({ data: rows });
    return rows.map((r) => r.task_id);
  };
  const reminders = () => t.prisma.outboxEvent.findMany({ where: { type: 'task.reminder' }, orderBy: { seq: 'asc' } });
  const ctx = (org: string) => ({ org_id: org, token_id: 'tok', phone_scope: null, phone: null });

  beforeAll(async () => {
    a = createPrismaClient({ url: t.db.url, poolSize: 2 });
    b = createPrismaClient({ url: t.db.url, poolSize: 2 });
    w.org = (await createOrg(t.prisma)).id;
    w.other = (await createOrg(t.prisma)).id;
  });

  it('two claimers racing fire each due reminder exactly once, each event of its own organization', async () => {
    const past = Date.now() - 1_000;
    const mine = await insertTasks(w.org, 600, (i) => new Date(past - i));
    const theirs = await insertTasks(w.other, 400, (i) => new Date(past - i));
    const claim = async (db: PrismaClient) => {
      let total = 0;
      for (;;) {
        const round = await fireDueReminders(db, 37);
        total += round.fired.length;
        if (!round.fired.length && (round.nextDueInMs === null || round.nextDueInMs > 0)) return total;
      }
    };
    const [x, y] = await Promise.all([claim(a), claim(b)]);
    expect(x + y).toBe(1_000);
    expect(x).toBeGreaterThan(0);
    expect(y).toBeGreaterThan(0);
    const events = await reminders();
    expect(events).toHaveLength(1_000);
    const byTask = new Map(events.map((e) => [(registryPayload(e) as { task_id: string }).task_id, e]));
    expect(byTask.size).toBe(1_000);
    for (const id of mine) expect(byTask.get(id)?.org_id).toBe(w.org);
    for (const id of theirs) expect(byTask.get(id)?.org_id).toBe(w.other);
    expect(await t.prisma.inboxTask.count({ where: { reminder_fired_at: null, remind_at: { not: null } } })).toBe(0);
    expect((await fireDueReminders(a, 100)).fired).toEqual([]);
  });

  it('does not fire closed, future or unset reminders, tells when the next is due, and fires a new remind_at again', async () => {
    await t.prisma.outboxEvent.deleteMany({});
    const [closed] = await insertTasks(w.org, 1, () => new Date(Date.now() - 1_000), { status: 'closed' });
    const [future] = await insertTasks(w.org, 1, () => new Date(Date.now() + 60_000));
    await insertTasks(w.org, 1, () => null);
    const round = await fireDueReminders(a, 100);
    expect(round.fired).toEqual([]);
    expect(round.nextDueInMs).toBeGreaterThan(50_000);
    expect(round.nextDueInMs).toBeLessThanOrEqual(60_000);
    await new UpdateTask(new TaskRepository(t.prisma), noReach).execute({
      ctx: ctx(w.org),
      params: { task_id: future },
      body: { remind_at: new Date(Date.now() - 10).toISOString() },
    });
    expect((await fireDueReminders(a, 100)).fired.map((r) => r.task_id)).toEqual([future]);
    await new UpdateTask(new TaskRepository(t.prisma), noReach).execute({
      ctx: ctx(w.org),
      params: { task_id: future },
      body: { remind_at: new Date(Date.now() - 5).toISOString() },
    });
    expect((await fireDueReminders(b, 100)).fired.map((r) => r.task_id)).toEqual([future]);
    expect((await fireDueReminders(b, 100)).fired).toEqual([]);
    expect((await reminders()).map((e) => (e.payload as { task_id: string }).task_id)).toEqual([future, future]);
    expect((await t.prisma.inboxTask.findUniqueOrThrow({ where: { task_id: closed } })).reminder_fired_at).toBeNull();
  });

  it('repeating reminders: two claimers racing fire each occurrence once and arm the next exactly once, in the same transaction', async () => {
    await t.prisma.outboxEvent.deleteMany({});
    await t.prisma.inboxTask.deleteMany({});
    const DAY = 86_400_000;
    // occurrence 0 due now, occurrence 1 in 3 s (by the database's clock); the "after 2" series end after that
    const setting = (end: Record<string, unknown>) => ({ remind_in: null, repeat: { frequency: 1, interval: 'days', ...end } });
    const never = await insertTasks(w.org, 150, () => null, { reminder_setting: setting({ end: 'never' }) });
    const two = await insertTasks(w.other, 150, () => null, { reminder_setting: setting({ end: 'after', on: '2' }) });
    const [{ start }] = await t.prisma.$queryRaw<{ start: Date }[]>`
      UPDATE inbox_tasks SET remind_at = date_trunc('milliseconds', now()) - interval '1 day' + interval '3 seconds', reminder_series_at = date_trunc('milliseconds', now()) - interval '1 day' + interval '3 seconds'
      RETURNING remind_at AS start`;
    const race = () =>
      Promise.all(
        [a, b].map(async (db) => {
          let n = 0;
          for (let r = await fireDueReminders(db, 23); r.fired.length; r = await fireDueReminders(db, 23)) n += r.fired.length;
          return n;
        }),
      );
    expect((await race()).reduce((x, y) => x + y)).toBe(300);
    const armed = await t.prisma.inboxTask.findMany({ where: { task_id: { in: [...never, ...two] } } });
    for (const row of armed)
      expect(row).toMatchObject({ remind_at: new Date(start.getTime() + DAY), reminder_index: 1, reminder_fired_at: null });
    // the event shows the occurrence that fired
    const first = await reminders();
    expect(first).toHaveLength(300);
    expect(new Set(first.map((e) => (registryPayload(e) as { task_id: string; remind_at: string }).remind_at))).toEqual(
      new Set([start.toISOString()]),
    );
    expect((await fireDueReminders(a, 100)).fired).toEqual([]);
    await new Promise((r) => setTimeout(r, start.getTime() + DAY - Date.now() + 300));
    expect((await race()).reduce((x, y) => x + y)).toBe(300);
    const after = await t.prisma.inboxTask.findMany({ where: { task_id: { in: [...never, ...two] } } });
    for (const row of after.filter((r) => (never as string[]).includes(r.task_id)))
      expect(row).toMatchObject({ remind_at: new Date(start.getTime() + 2 * DAY), reminder_index: 2, reminder_fired_at: null });
    // a series of two has ended: its last reminder stays fired
    for (const row of after.filter((r) => (two as string[]).includes(r.task_id)))
      expect(row).toMatchObject({ remind_at: new Date(start.getTime() + DAY), reminder_index: 1, reminder_fired_at: expect.any(Date) });
    const events = await reminders();
    expect(events).toHaveLength(600);
    const perTask = new Map<string, number>();
    for (const e of events)
      perTask.set((e.payload as { task_id: string }).task_id, (perTask.get((e.payload as { task_id: string }).task_id) ?? 0) + 1);
    expect([...perTask.values()].every((n) => n === 2)).toBe(true);
  });

  it('occurrences missed while nothing ran fire once (late), and the next armed is the first still ahead', async () => {
    await t.prisma.outboxEvent.deleteMany({});
    const start = new Date(Date.now() - 10 * 86_400_000 - 60_000);
    const [id] = await insertTasks(w.org, 1, () => start, {
      reminder_setting: { remind_in: null, repeat: { frequency: 1, interval: 'weeks', end: 'never' } },
      reminder_series_at: start,
    });
    expect((await fireDueReminders(a, 10)).fired.map((r) => r.task_id)).toEqual([id]);
    expect(await t.prisma.inboxTask.findUniqueOrThrow({ where: { task_id: id } })).toMatchObject({
      remind_at: new Date(start.getTime() + 14 * 86_400_000),
      reminder_index: 2,
    });
    expect(await reminders()).toHaveLength(1);
  });

  it('a poller asleep (nothing due for its idle poll) fires a reminder armed later at its remind_at, woken by the announcement', async () => {
    await t.prisma.outboxEvent.deleteMany({});
    await t.prisma.inboxTask.deleteMany({});
    const fired: number[] = [];
    poller = new ReminderPoller(a, logger, {
      batch: 100,
      idlePollMs: 60_000,
      fallbackPollMs: 60_000,
      listenUrl: t.db.url,
      onFired: (r) => fired.push(...r.fired.map(() => Date.now())),
    });
    await poller.start();
    await new Promise((r) => setTimeout(r, 300)); // its first round found nothing: asleep for 60 s
    const at = new Date(Date.now() + 700);
    const [id] = await insertTasks(w.org, 1, () => at);
    await new TaskRepository(t.prisma).announceReminder(t.prisma, at);
    const deadline = Date.now() + 5_000;
    while (!fired.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(fired).toHaveLength(1);
    expect(fired[0]).toBeGreaterThanOrEqual(at.getTime() - 50);
    expect(fired[0] - at.getTime()).toBeLessThan(1_000);
    expect((await reminders()).map((e) => (e.payload as { task_id: string }).task_id)).toEqual([id]);
    await poller.stop();
    poller = undefined;
  });
});
