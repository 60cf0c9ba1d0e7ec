import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { TaskSchema } from '../../events/task/task.schema';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { TaskIdParams } from '../task/task-fields';

export const DeleteTaskRpc = defineRpc({
  subject: 'inbox.v1.tasks.delete',
  service: 'inbox',
  request: z.object({ ctx: RequestContextSchema, params: TaskIdParams }),
  response: TaskSchema,
});
export type DeleteTaskRequest = z.infer<typeof DeleteTaskRpc.request>;

export const DeleteTaskRoute = defineRoute({
  operationId: 'deleteTask',
  method: 'DELETE',
  path: '/tasks/{task_id}',
  tag: 'tasks',
  summary: 'Delete a task',
  description: 'Deletes the task (its pending reminder with it) and answers it as it was. A task out of reach is 404. Emits task.deleted.',
  params: TaskIdParams,
  phone: 'optional',
  rpc: DeleteTaskRpc,
  successStatus: 200,
  response: TaskSchema,
});
