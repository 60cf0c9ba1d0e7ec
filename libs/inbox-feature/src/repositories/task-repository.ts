import { Prisma, type PrismaClient } from '@mapi/db';

/** A stored task, as `inbox_tasks` holds it. */
export interface TaskRow {
  task_id: string;
  org_id: string;
  phone_id: string | null;
  type: string;
  title: string;
  notes: string | null;
  status: string;
  priority: number;
  assignee: string | null;
  due_date: Date | null;
  remind_at: Date | null;
  reminder_fired_at: Date | null;
  reminder_setting: Prisma.JsonValue | null;
  /** A repeating reminder's first occurrence; null when remind_at was never set. */
  reminder_series_at: Date | null;
  /** Which occurrence of the series remind_at is (0: the first). */
  reminder_index: number;
  chat_id: string | null;
  message_id: string | null;
  ticket_id: string | null;
  associated_object_metadata: Prisma.JsonValue | null;
  completed_at: Date | null;
  completed_by: string | null;
  created_by: string;
  created_at: Date;
  last_updated_by: string;
  last_updated_at: Date;
}

export type NewTask = Omit<
  TaskRow,
  'org_id' | 'created_at' | 'last_updated_at' | 'reminder_fired_at' | 'reminder_setting' | 'reminder_index' | 'associated_object_metadata'
> & {
  associated_object_metadata: Prisma.InputJsonValue | null;
  reminder_setting: Prisma.InputJsonValue | null;
};

/** What an update may set (undefined: left as it is). */
export type TaskChanges = Partial<
  Pick<
    TaskRow,
    | 'title'
    | 'notes'
    | 'status'
    | 'priority'
    | 'assignee'
    | 'due_date'
    | 'remind_at'
    | 'reminder_fired_at'
    | 'reminder_series_at'
    | 'reminder_index'
    | 'completed_at'
    | 'completed_by'
    | 'last_updated_by'
  >
> & { reminder_setting?: Prisma.InputJsonValue | null };

/** A nullable Json column's value as Prisma writes it (null: SQL NULL). */
const jsonOrNull = (v: Prisma.InputJsonValue | null | undefined) => (v === null ? Prisma.DbNull : v);

export interface TaskFilter {
  status?: string;
  assignee?: string;
  priority?: number;
  type?: string;
  chat_id?: string;
  ticket_id?: string;
  /** ISO bounds on due_date, inclusive. */
  due_before?: string;
  due_after?: string;
}

type Db = PrismaClient | Prisma.TransactionClient;

/** The channel a transaction that arms a reminder notifies (payload: its remind_at in epoch ms); delivered at commit. */
export const REMINDER_CHANNEL = 'mapi_task_reminders';

/**
 * The tasks in reach: those of the phones in reach, and todo tasks (no phone: every token of the
 * organization reaches them). Null reach: every task of the organization.
 */
const inReach = (phoneIds: string[] | null): Prisma.InboxTaskWhereInput =>
  phoneIds ? { OR: [{ phone_id: { in: phoneIds } }, { phone_id: null }] } : {};

/** Whether a row's reminder is pending: set, not fired, and the task not closed. */
export const reminderPending = (row: Pick<TaskRow, 'remind_at' | 'reminder_fired_at' | 'status'>) =>
  !!row.remind_at && !row.reminder_fired_at && row.status !== 'closed';

/**
 * Tasks of the inbox service. The organization is part of every signature and every query;
 * `phoneIds` (the phones in reach, null for all) narrows to the tasks of those phones and todos.
 * The reminder poller's cross-organization claim is elsewhere (reminders/due-reminders.ts).
 */
export class TaskRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /** A page, newest first (created_at, then task_id), filtered as asked. */
  list(orgId: string, phoneIds: string[] | null, filter: TaskFilter, offset: number, limit: number): Promise<TaskRow[]> {
    const due = {
      ...(filter.due_before ? { lte: new Date(filter.due_before) } : {}),
      ...(filter.due_after ? { gte: new Date(filter.due_after) } : {}),
    };
    return this.prisma.inboxTask.findMany({
      where: {
        org_id: orgId,
        ...inReach(phoneIds),
        ...(filter.status ? { status: filter.status } : {}),
        ...(filter.assignee ? { assignee: filter.assignee } : {}),
        ...(filter.priority ? { priority: filter.priority } : {}),
        ...(filter.type ? { type: filter.type } : {}),
        ...(filter.chat_id ? { chat_id: filter.chat_id } : {}),
        ...(filter.ticket_id ? { ticket_id: filter.ticket_id } : {}),
        ...(Object.keys(due).length ? { due_date: due } : {}),
      },
      orderBy: [{ created_at: 'desc' }, { task_id: 'desc' }],
      skip: offset,
      take: limit,
    });
  }

  find(orgId: string, taskId: string, phoneIds: string[] | null, db: Db = this.prisma): Promise<TaskRow | null> {
    return db.inboxTask.findFirst({ where: { org_id: orgId, task_id: taskId, ...inReach(phoneIds) } });
  }

  /** The task in reach, its row locked until the transaction ends; null when there is none. */
  async findForUpdate(tx: Prisma.TransactionClient, orgId: string, taskId: string, phoneIds: string[] | null): Promise<TaskRow | null> {
    const locked = await tx.$queryRaw<{ task_id: string }[]>`
      SELECT task_id FROM inbox_tasks
      WHERE org_id = ${orgId}::uuid AND task_id = ${taskId}::uuid
        AND (${phoneIds === null} OR phone_id IS NULL OR phone_id = ANY(${phoneIds ?? []}::text[]))
      FOR UPDATE`;
    return locked.length ? this.find(orgId, taskId, phoneIds, tx) : null;
  }

  insert(tx: Db, orgId: string, task: NewTask): Promise<TaskRow> {
    return tx.inboxTask.create({
      data: {
        ...task,
        org_id: orgId,
        associated_object_metadata: task.associated_object_metadata ?? undefined,
        reminder_setting: jsonOrNull(task.reminder_setting),
      },
    });
  }

  update(tx: Db, orgId: string, taskId: string, changes: TaskChanges, at: Date): Promise<TaskRow> {
    // the caller holds the row (findForUpdate) of this organization
    return tx.inboxTask.update({
      where: { task_id: taskId, org_id: orgId },
      data: { ...changes, reminder_setting: jsonOrNull(changes.reminder_setting), last_updated_at: at },
    });
  }

  delete(tx: Db, orgId: string, taskId: string): Promise<TaskRow> {
    // the caller holds the row (findForUpdate) of this organization
    return tx.inboxTask.delete({ where: { task_id: taskId, org_id: orgId } });
  }

  /** Wakes every reminder poller at commit, so one fires at `at` rather than at its next safety poll. */
  async announceReminder(tx: Db, at: Date): Promise<void> {
    await tx.$executeRaw`SELECT pg_notify(${REMINDER_CHANNEL}, ${String(at.getTime())})`;
  }

  transaction<T>(work: (tx: Prisma.TransactionClient) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(work);
  }
}
