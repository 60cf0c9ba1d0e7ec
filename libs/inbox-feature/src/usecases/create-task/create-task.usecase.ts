import { randomUUID } from 'node:crypto';
import { remindInOffset, type CreateTaskRequest, type Task } from '@mapi/contracts';
import { writeEvents } from '@mapi/events';
import type { ChatLookup } from '../../chat-lookup';
import { mapTask } from '../../map-task';
import { reminderPending, type TaskRepository } from '../../repositories/task-repository';
import type { TicketRepository } from '../../repositories/ticket-repository';
import { resolveAssociation } from './task-association';

/**
 * POST /tasks/create: a task, about an object within reach (it then belongs to that object's phone)
 * or a todo. Row, reminder wake-up and task.created are one transaction; the reminder fires at
 * remind_at through the reminder poller (at once if remind_at has passed).
 */
export class CreateTask {
  constructor(
    private readonly tasks: TaskRepository,
    private readonly tickets: TicketRepository,
    private readonly chats: ChatLookup,
  ) {}

  async execute({ ctx, body }: CreateTaskRequest): Promise<Task> {
    const target = await resolveAssociation(ctx, body.association, this.chats, this.tickets);
    const now = new Date();
    const status = body.status ?? 'open';
    const closed = status === 'closed';
    const offset = body.reminder_setting?.remind_in ? remindInOffset(body.reminder_setting.remind_in) : null;
    const remindAt = body.remind_at
      ? new Date(body.remind_at)
      : offset !== null && body.due_date
        ? new Date(new Date(body.due_date).getTime() + offset)
        : null;
    return this.tasks.transaction(async (tx) => {
      const row = await this.tasks.insert(tx, ctx.org_id, {
        task_id: randomUUID(),
        phone_id: target.phone_id,
        type: target.type,
        title: body.title,
        notes: body.notes ?? null,
        status,
        priority: body.priority ?? 1,
        assignee: body.assignee ?? null,
        due_date: body.due_date ? new Date(body.due_date) : null,
        remind_at: remindAt,
        reminder_setting: body.reminder_setting ?? null,
        reminder_series_at: remindAt,
        chat_id: target.chat_id,
        message_id: target.message_id,
        ticket_id: target.ticket_id,
        associated_object_metadata: target.metadata,
        completed_at: closed ? now : null,
        completed_by: closed ? ctx.token_id : null,
        created_by: ctx.token_id,
        last_updated_by: ctx.token_id,
      });
      if (reminderPending(row)) await this.tasks.announceReminder(tx, row.remind_at as Date);
      const data = mapTask(row);
      await writeEvents(tx, [{ type: 'task.created', org_id: ctx.org_id, phone_id: row.phone_id, data }]);
      return data;
    });
  }
}
