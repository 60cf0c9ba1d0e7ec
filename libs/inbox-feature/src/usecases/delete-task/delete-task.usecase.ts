import type { DeleteTaskRequest, Task } from '@mapi/contracts';
import { writeEvents } from '@mapi/events';
import { taskNotFound } from '../../chat-lookup';
import { isMember, rowPhones, visibleRow, type ChatReachCheck } from '../../member-reach';
import { mapTask } from '../../map-task';
import type { TaskRepository } from '../../repositories/task-repository';

/**
 * DELETE /tasks/{task_id}: removes a task in reach, and with the row its pending reminder (a claim
 * under way holds the row: the delete waits for it). Answers the task as it was; task.deleted carries it.
 */
export class DeleteTask {
  constructor(
    private readonly tasks: TaskRepository,
    private readonly reach: ChatReachCheck,
  ) {}

  async execute({ ctx, params }: DeleteTaskRequest): Promise<Task> {
    // a member's reach is the chats service's to decide: checked before the row is locked (no lock across an RPC)
    if (isMember(ctx) && !(await visibleRow(this.reach, ctx, await this.tasks.find(ctx.org_id, params.task_id, rowPhones(ctx)))))
      throw taskNotFound();
    return this.tasks.transaction(async (tx) => {
      const before = await this.tasks.findForUpdate(tx, ctx.org_id, params.task_id, rowPhones(ctx));
      if (!before) throw taskNotFound();
      await this.tasks.delete(tx, ctx.org_id, before.task_id);
      const data = mapTask(before);
      await writeEvents(tx, [{ type: 'task.deleted', org_id: ctx.org_id, phone_id: before.phone_id, data }]);
      return data;
    });
  }
}
