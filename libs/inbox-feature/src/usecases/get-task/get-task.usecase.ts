import type { GetTaskRequest, Task } from '@mapi/contracts';
import { phonesInReach, taskNotFound } from '../../chat-lookup';
import { mapTask } from '../../map-task';
import type { TaskRepository } from '../../repositories/task-repository';

/** GET /tasks/{task_id}: the task in reach; 404 otherwise (another organization's too). */
export class GetTask {
  constructor(private readonly tasks: TaskRepository) {}

  async execute({ ctx, params }: GetTaskRequest): Promise<Task> {
    const row = await this.tasks.find(ctx.org_id, params.task_id, phonesInReach(ctx));
    if (!row) throw taskNotFound();
    return mapTask(row);
  }
}
