import type { GetTaskRequest, Task } from '@mapi/contracts';
import { taskNotFound } from '../../chat-lookup';
import { rowPhones, visibleRow, type ChatReachCheck } from '../../member-reach';
import { mapTask } from '../../map-task';
import type { TaskRepository } from '../../repositories/task-repository';

/** GET /tasks/{task_id}: the task in reach; 404 otherwise (another organization's too). */
export class GetTask {
  constructor(
    private readonly tasks: TaskRepository,
    private readonly reach: ChatReachCheck,
  ) {}

  async execute({ ctx, params }: GetTaskRequest): Promise<Task> {
    const row = await visibleRow(this.reach, ctx, await this.tasks.find(ctx.org_id, params.task_id, rowPhones(ctx)));
    if (!row) throw taskNotFound();
    return mapTask(row);
  }
}
