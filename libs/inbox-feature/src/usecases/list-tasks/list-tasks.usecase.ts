import { pagePositions, type ListTasksRequest, type ListTasksResponse } from '@mapi/contracts';
import { rowPhones, visiblePage, type ChatReachCheck } from '../../member-reach';
import { mapTask } from '../../map-task';
import type { TaskRepository } from '../../repositories/task-repository';

/** GET /tasks: a page of the organization's tasks of the phones in reach and its todos, newest first, filtered. */
export class ListTasks {
  constructor(
    private readonly tasks: TaskRepository,
    private readonly reach: ChatReachCheck,
  ) {}

  async execute({ ctx, query }: ListTasksRequest): Promise<ListTasksResponse> {
    const { offset, limit, ...filter } = query;
    const rows = await visiblePage(this.reach, ctx, (o, l) => this.tasks.list(ctx.org_id, rowPhones(ctx), filter, o, l), offset, limit);
    return { ...pagePositions(offset, rows.length), tasks: rows.map(mapTask) };
  }
}
