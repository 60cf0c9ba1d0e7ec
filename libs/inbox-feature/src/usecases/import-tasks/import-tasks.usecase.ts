import {
  ImportTaskItem,
  type ImportBatchResponse,
  type ImportItemResult,
  type ImportTasksRequest,
  type RequestContext,
} from '@mapi/contracts';
import type { Prisma, PrismaClient } from '@mapi/db';
import type { ChatLookup } from '../../chat-lookup';
import { ItemRefused, date, eachItem, record, str } from '../../imports/import-items';
import { changedColumns, findKept, newKeptId, uuidId } from '../../imports/kept-id';
import { TaskRepository } from '../../repositories/task-repository';
import { importedReminder, sameReminderSource } from './task-reminder';

/**
 * inbox.v1.import.tasks (the importer): tasks as GET /tasks answers them (or `tbl_org_tasks` rows),
 * with their dates and actors. A task on a chat or message is the phone's that holds the chat here; on
 * a ticket, the ticket's (a ticket of this organization: the importer sends tickets first). No task.*
 * event (a backfill). Reminders: see importedReminder; a rerun leaves a reminder the poller has fired
 * or re-armed since as it is.
 */
export class ImportTasks {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly chats: ChatLookup,
  ) {}

  async execute({ ctx, body }: ImportTasksRequest): Promise<ImportBatchResponse> {
    const now = new Date();
    return { results: await eachItem(body.items, ImportTaskItem, (item) => this.one(ctx, item, now)) };
  }

  /** What the task is about here, and the phone that holds it. */
  private async about(ctx: RequestContext, item: ImportTaskItem) {
    const assoc = item.association ?? {};
    const ticketId = str(item.ticket_id) ?? str(assoc.ticket_id);
    const messageId = str(item.message_id) ?? str(assoc.message_id);
    const chatId = str(item.chat_id) ?? str(assoc.chat_id);
    const type = item.type ?? (ticketId ? 'ticket' : messageId ? 'message' : chatId ? 'chat' : 'todo');
    if (type === 'todo') return { type, phone_id: null, chat_id: null, message_id: null, ticket_id: null };
    if (type === 'ticket') {
      const ticket = uuidId(ticketId)
        ? await this.prisma.inboxTicket.findFirst({
            where: { org_id: ctx.org_id, ticket_id: ticketId },
            select: { phone_id: true, chat_id: true },
          })
        : null;
      if (!ticket) throw new ItemRefused(`ticket_id: ${ticketId ?? 'none'} is not a ticket of this organization`);
      return { type, phone_id: ticket.phone_id, chat_id: ticket.chat_id, message_id: null, ticket_id: ticketId };
    }
    if (!chatId) throw new ItemRefused(`association.chat_id: a ${type} task needs its chat`);
    if (type === 'message' && !messageId) throw new ItemRefused('association.message_id: a message task needs its message');
    const phoneId = await this.chats.chat(ctx, chatId).then(
      (c) => c.phone_id,
      () => null,
    );
    if (!phoneId) throw new ItemRefused(`no phone of this organization holds the chat ${chatId}`);
    return { type, phone_id: phoneId, chat_id: chatId, message_id: type === 'message' ? messageId : null, ticket_id: null };
  }

  private async one(ctx: RequestContext, item: ImportTaskItem, now: Date): Promise<ImportItemResult> {
    const about = await this.about(ctx, item);
    const raw = item as Record<string, unknown>;
    const completed = item.completed_metadata ?? {};
    const remindAt = date(raw.remind_at);
    const setting = (record(raw.reminder_setting) ?? null) as Prisma.InputJsonValue | null;
    const created = date(raw.created_at);
    const createdBy = str(raw.created_by) ?? ctx.token_id;
    const data: Record<string, unknown> = {
      ...about,
      title: item.title,
      notes: item.notes ?? null,
      status: item.status ?? 'open',
      priority: item.priority ?? 1,
      assignee: str(raw.assignee)?.toLowerCase() ?? null,
      due_date: date(raw.due_date),
      reminder_setting: setting,
      associated_object_metadata: (record(raw.associated_object_metadata) ?? null) as Prisma.InputJsonValue | null,
      completed_at: item.status === 'closed' ? (date(completed.completed_at) ?? date(raw.completed_at) ?? created) : null,
      completed_by: item.status === 'closed' ? (str(completed.completed_by) ?? str(raw.completed_by)) : null,
      created_by: createdBy,
      last_updated_by: str(raw.last_updated_by) ?? createdBy,
      ...(created ? { created_at: created } : {}),
      ...((date(raw.last_updated_at) ?? created) ? { last_updated_at: date(raw.last_updated_at) ?? created } : {}),
    };
    const table = this.prisma.inboxTask;
    const here = await findKept(table, 'task_id', ctx.org_id, item, uuidId);
    const reminder = importedReminder(remindAt, setting, now);
    if (here) {
      const changes = changedColumns(here, sameReminderSource(here, remindAt, setting) ? data : { ...data, ...reminder });
      if (!Object.keys(changes).length) return { source_id: item.source_id, target_id: here.task_id, outcome: 'skipped' };
      await this.write(reminder, changes, (tx) =>
        tx.inboxTask.update({ where: { task_id: here.task_id, org_id: ctx.org_id }, data: changes }),
      );
      return { source_id: item.source_id, target_id: here.task_id, outcome: 'updated' };
    }
    const taskId = await newKeptId(table, 'task_id', item, uuidId);
    const row = { ...data, ...reminder, task_id: taskId, org_id: ctx.org_id } as Prisma.InboxTaskUncheckedCreateInput;
    await this.write(reminder, row, (tx) => tx.inboxTask.create({ data: row }));
    return { source_id: item.source_id, target_id: taskId, outcome: 'created' };
  }

  /** The write, and a pending reminder announced to the pollers at its commit (as any task's). */
  private async write(
    reminder: { remind_at: Date | null; reminder_fired_at: Date | null },
    written: object,
    work: (tx: Prisma.TransactionClient) => Promise<unknown>,
  ): Promise<void> {
    const armed = 'remind_at' in written && reminder.remind_at && !reminder.reminder_fired_at ? reminder.remind_at : null;
    await this.prisma.$transaction(async (tx) => {
      await work(tx);
      if (armed) await new TaskRepository(this.prisma).announceReminder(tx, armed);
    });
  }
}
