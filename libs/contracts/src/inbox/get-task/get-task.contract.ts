import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { TaskSchema } from '../../events/task/task.schema';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { TaskIdParams } from '../task/task-fields';

export const GetTaskRpc = defineRpc({
  subject: 'inbox.v1.tasks.get',
  service: 'inbox',
  request: z.object({ ctx: RequestContextSchema, params: TaskIdParams }),
  response: TaskSchema,
});
export type GetTaskRequest = z.infer<typeof GetTaskRpc.request>;

export const GetTaskRoute = defineRoute({
  operationId: 'getTaskById',
  method: 'GET',
  path: '/tasks/{task_id}',
  tag: 'tasks',
  summary: 'Get a task',
  description:
    "The task by its task_id. A task of a phone out of reach, a missing one and another organization's are all 404 NOT_FOUND_ERROR.",
  params: TaskIdParams,
  phone: 'optional',
  rpc: GetTaskRpc,
  successStatus: 200,
  response: TaskSchema,
});
