import { CreateTaskBody, ListTasksQuery, UpdateTaskBody } from '@mapi/contracts';
import type { TaskRow } from '../../repositories/task-repository';
import { taskChanges } from './task-changes';

const ctx = { org_id: '00000000-0000-4000-8000-000000000001', token_id: 'tok', phone_scope: null, phone: null };
const now = new Date('2026-03-01T00:00:00.000Z');
const row = (over: Partial<TaskRow> = {}): TaskRow => ({
  task_id: 't',
  org_id: ctx.org_id,
  phone_id: null,
  type: 'todo',
  title: 'T',
  notes: null,
  status: 'open',
  priority: 1,
  assignee: null,
  due_date: null,
  remind_at: new Date('2026-03-02T00:00:00.000Z'),
  reminder_fired_at: new Date('2026-03-02T00:00:01.000Z'),
  reminder_setting: null,
  reminder_series_at: new Date('2026-03-02T00:00:00.000Z'),
  reminder_index: 0,
  chat_id: null,
  message_id: null,
  ticket_id: null,
  associated_object_metadata: null,
  completed_at: null,
  completed_by: null,
  created_by: 'tok',
  created_at: now,
  last_updated_by: 'tok',
  last_updated_at: now,
  ...over,
});
const body = (b: Record<string, unknown>) => UpdateTaskBody.parse(b);

describe('taskChanges', () => {
  it('changes nothing for values already held (dates compared as instants)', () => {
    expect(taskChanges(row(), body({ title: 'T', priority: 1, remind_at: '2026-03-02 00:00:00+00', notes: null }), ctx, now)).toEqual({});
  });

  it('re-arms the reminder when remind_at changes, and clearing it leaves nothing to fire', () => {
    expect(taskChanges(row(), body({ remind_at: '2026-03-03T00:00:00Z' }), ctx, now)).toEqual({
      remind_at: new Date('2026-03-03T00:00:00Z'),
      reminder_fired_at: null,
      reminder_series_at: new Date('2026-03-03T00:00:00Z'),
      reminder_index: 0,
      last_updated_by: 'tok',
    });
    expect(taskChanges(row(), body({ remind_at: '' }), ctx, now)).toMatchObject({ remind_at: null, reminder_fired_at: null });
  });

  it('a repeat given to a task whose reminder fired arms its next occurrence after now; on a pending one it only sets the repeat', () => {
    const daily = { remind_in: null, repeat: { frequency: 1, interval: 'days', end: 'never' } };
    const fired = row({
      remind_at: new Date('2026-02-26T09:00:00.000Z'),
      reminder_series_at: new Date('2026-02-26T09:00:00.000Z'),
      reminder_fired_at: new Date('2026-02-26T09:00:01.000Z'),
    });
    expect(taskChanges(fired, body({ reminder_setting: daily }), ctx, now)).toEqual({
      reminder_setting: daily,
      remind_at: new Date('2026-03-01T09:00:00.000Z'),
      reminder_index: 3,
      reminder_fired_at: null,
      last_updated_by: 'tok',
    });
    const pending = row({ reminder_fired_at: null });
    expect(taskChanges(pending, body({ reminder_setting: daily }), ctx, now)).toEqual({ reminder_setting: daily, last_updated_by: 'tok' });
    expect(taskChanges(row({ reminder_setting: daily }), body({ reminder_setting: daily }), ctx, now)).toEqual({});
    expect(taskChanges(row({ reminder_setting: daily }), body({ reminder_setting: null }), ctx, now)).toEqual({
      reminder_setting: null,
      last_updated_by: 'tok',
    });
  });

  it('a repeat without a remind_at is 422 (on reminder_setting.repeat, or on remind_at when clearing it)', () => {
    const daily = { repeat: { frequency: 1, interval: 'days' } };
    const fields = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return Object.keys((e as { fields?: object }).fields ?? {});
      }
      return [];
    };
    expect(fields(() => taskChanges(row({ remind_at: null }), body({ reminder_setting: daily }), ctx, now))).toEqual([
      'body.reminder_setting.repeat',
    ]);
    expect(
      fields(() =>
        taskChanges(
          row({ reminder_setting: { remind_in: null, repeat: { frequency: 1, interval: 'days', end: 'never' } } }),
          body({ remind_at: null }),
          ctx,
          now,
        ),
      ),
    ).toEqual(['body.remind_at']);
    expect(
      fields(() =>
        taskChanges(
          row({ reminder_setting: { remind_in: null, repeat: { frequency: 1, interval: 'days', end: 'never' } } }),
          body({ remind_at: null, reminder_setting: null }),
          ctx,
          now,
        ),
      ),
    ).toEqual([]);
  });

  it('remind_in: remind_at follows the due date (re-armed when it moves); remind_at beside it, or no due date, is 422', () => {
    const setting = { remind_in: '30 minutes before', repeat: null };
    const due = new Date('2026-03-10T12:00:00.000Z');
    const task = row({
      due_date: due,
      remind_at: new Date('2026-03-10T11:30:00.000Z'),
      reminder_setting: setting,
      reminder_fired_at: null,
    });
    expect(taskChanges(task, body({ due_date: '2026-03-11T12:00:00Z' }), ctx, now)).toEqual({
      due_date: new Date('2026-03-11T12:00:00Z'),
      remind_at: new Date('2026-03-11T11:30:00Z'),
      reminder_fired_at: null,
      reminder_series_at: new Date('2026-03-11T11:30:00Z'),
      reminder_index: 0,
      last_updated_by: 'tok',
    });
    expect(
      taskChanges(row({ due_date: due, remind_at: null }), body({ reminder_setting: { remind_in: '2 hours after' } }), ctx, now),
    ).toMatchObject({
      reminder_setting: { remind_in: '2 hours after', repeat: null },
      remind_at: new Date('2026-03-10T14:00:00Z'),
    });
    expect(taskChanges(task, body({ title: 'x' }), ctx, now)).toEqual({ title: 'x', last_updated_by: 'tok' });
    const fields = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return Object.keys((e as { fields?: object }).fields ?? {});
      }
      return [];
    };
    expect(fields(() => taskChanges(task, body({ remind_at: '2026-03-10T10:00:00Z' }), ctx, now))).toEqual(['body.remind_at']);
    expect(fields(() => taskChanges(task, body({ due_date: null }), ctx, now))).toEqual(['body.due_date']);
    expect(
      fields(() => taskChanges(row({ due_date: null }), body({ reminder_setting: { remind_in: '1 days before' } }), ctx, now)),
    ).toEqual(['body.reminder_setting.remind_in']);
    expect(taskChanges(task, body({ reminder_setting: null, remind_at: '2026-03-10T10:00:00Z' }), ctx, now)).toMatchObject({
      reminder_setting: null,
      remind_at: new Date('2026-03-10T10:00:00Z'),
    });
  });

  it('closing sets completed_at/by; reopening clears them', () => {
    expect(taskChanges(row(), body({ status: 'closed' }), ctx, now)).toEqual({
      status: 'closed',
      completed_at: now,
      completed_by: 'tok',
      last_updated_by: 'tok',
    });
    expect(taskChanges(row({ status: 'closed', completed_at: now, completed_by: 'x' }), body({ status: 'inprogress' }), ctx, now)).toEqual({
      status: 'inprogress',
      completed_at: null,
      completed_by: null,
      last_updated_by: 'tok',
    });
  });
});

describe('task contracts', () => {
  const issues = (r: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) =>
    (r.error?.issues ?? []).map((i) => i.path.join('.'));

  it('derives nothing wrong: type must agree with the association, which names one object', () => {
    expect(CreateTaskBody.safeParse({ title: 'x' }).success).toBe(true);
    expect(CreateTaskBody.safeParse({ title: 'x', type: 'todo' }).success).toBe(true);
    expect(
      CreateTaskBody.safeParse({ title: 'x', type: 'message', association: { chat_id: '919876543210', message_id: 'm' } }).success,
    ).toBe(true);
    expect(issues(CreateTaskBody.safeParse({ title: 'x', type: 'chat' }))).toEqual(['association']);
    expect(issues(CreateTaskBody.safeParse({ title: 'x', type: 'ticket', association: { chat_id: '919876543210' } }))).toEqual(['type']);
    expect(issues(CreateTaskBody.safeParse({ title: 'x', association: { message_id: 'm' } }))).toEqual(['association.chat_id']);
    expect(
      issues(
        CreateTaskBody.safeParse({
          title: 'x',
          association: { ticket_id: '00000000-0000-4000-8000-000000000001', chat_id: '919876543210' },
        }),
      ),
    ).toEqual(['association.ticket_id']);
    expect(issues(CreateTaskBody.safeParse({ title: 'x', association: {} }))).toEqual(['association']);
    expect(issues(CreateTaskBody.safeParse({ title: 'x', remind_at: 'soon' }))).toEqual(['remind_at']);
    expect(issues(CreateTaskBody.safeParse({ title: 'x', reminder_setting: { remind_in: '30 minutes before' } }))).toEqual([
      'reminder_setting.remind_in',
    ]);
    expect(
      issues(
        CreateTaskBody.safeParse({
          title: 'x',
          due_date: '2026-01-01',
          remind_at: '2026-01-01',
          reminder_setting: { remind_in: '1 day before' },
        }),
      ),
    ).toEqual(['remind_at']);
    expect(issues(CreateTaskBody.safeParse({ title: 'x', due_date: '2026-01-01', reminder_setting: { remind_in: 'soon' } }))).toEqual([
      'reminder_setting.remind_in',
    ]);
    expect(
      CreateTaskBody.parse({ title: 'x', due_date: '2026-01-01', reminder_setting: { remind_in: ' 1 Day BEFORE ' } }).reminder_setting,
    ).toEqual({ remind_in: '1 days before', repeat: null });
  });

  it('parses its own output again (the service validates what the gateway parsed)', () => {
    const once = CreateTaskBody.parse({
      title: ' x ',
      association: { chat_id: '919876543210' },
      priority: '2',
      remind_at: '2026-01-01 10:00:00+00',
    });
    expect(CreateTaskBody.parse(once)).toEqual(once);
    const q = ListTasksQuery.parse({ due_before: '2026-01-01', due_after: '2025-12-01', priority: '3', limit: '5' });
    expect(ListTasksQuery.parse(q)).toEqual(q);
    expect(issues(ListTasksQuery.safeParse({ due_before: '2025-01-01', due_after: '2025-12-01' }))).toEqual(['due_before']);
  });
});
