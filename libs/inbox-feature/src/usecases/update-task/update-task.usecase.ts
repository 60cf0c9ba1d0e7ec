import { previousAttributes, type Task, type UpdateTaskRequest } from '@mapi/contracts';
import { writeEvents } from '@mapi/events';
import { taskNotFound } from '../../chat-lookup';
import { isMember, rowPhones, visibleRow, type ChatReachCheck } from '../../member-reach';
import { mapTask } from '../../map-task';
import { reminderPending, type TaskRepository } from '../../repositories/task-repository';
import { taskChanges } from './task-changes';

/**
 * PATCH /tasks/{task_id}: changes the given fields of a task in reach. The row is locked while the
 * change is computed and written with task.updated (previous_attributes: the fields it replaced) in
 * one transaction, so a reminder being claimed at that moment fires before or after, never half; a
 * change of nothing writes nothing.
 */
export class UpdateTask {
  constructor(
    private readonly tasks: TaskRepository,
    private readonly reach: ChatReachCheck,
  ) {}

  async execute({ ctx, params, body }: UpdateTaskRequest): Promise<Task> {
    const reach = rowPhones(ctx);
    // a member's reach is the chats service's to decide: checked before the row is locked (no lock across an RPC)
    if (isMember(ctx) && !(await visibleRow(this.reach, ctx, await this.tasks.find(ctx.org_id, params.task_id, reach))))
      throw taskNotFound();
    return this.tasks.transaction(async (tx) => {
      const before = await this.tasks.findForUpdate(tx, ctx.org_id, params.task_id, reach);
      if (!before) throw taskNotFound();
      const now = new Date();
      const changes = taskChanges(before, body, ctx, now);
      if (!Object.keys(changes).length) return mapTask(before);
      const after = await this.tasks.update(tx, ctx.org_id, before.task_id, changes, now);
      // a reminder armed now (newly pending, or moved) wakes the pollers for its time
      if (reminderPending(after) && (!reminderPending(before) || changes.remind_at))
        await this.tasks.announceReminder(tx, after.remind_at as Date);
      const data = mapTask(after);
      await writeEvents(tx, [
        { type: 'task.updated', org_id: ctx.org_id, phone_id: after.phone_id, data, previous: previousAttributes(mapTask(before), data) },
      ]);
      return data;
    });
  }
}
