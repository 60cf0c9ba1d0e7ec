import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { TaskSchema } from '../../events/task/task.schema';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { PrioritySchema } from '../create-ticket/create-ticket.contract';
import { AssigneeSchema } from '../ticket/ticket-info.schema';
import { ReminderSettingSchema, TaskIdParams, TaskNotesSchema, TaskStatusSchema, TaskTitleSchema, taskDate } from '../task/task-fields';

/** null or "": clear the field. */
const clearable = <T extends z.ZodType>(schema: T) => z.union([z.literal('').transform(() => null), z.null(), schema]).optional();

/** Every field optional; notes, assignee, due_date and remind_at take null (or "") to clear them. The association cannot change. */
export const UpdateTaskBody = z.object({
  title: TaskTitleSchema.optional(),
  notes: clearable(TaskNotesSchema),
  assignee: clearable(AssigneeSchema),
  due_date: clearable(taskDate('due_date')),
  remind_at: clearable(taskDate('remind_at')),
  /** Replaces the setting: remind_in sets remind_at from the due date (and keeps it following it); repeat repeats; null stops both. */
  reminder_setting: ReminderSettingSchema.nullable().optional(),
  priority: PrioritySchema.optional(),
  status: TaskStatusSchema.optional(),
});
export type UpdateTaskBody = z.infer<typeof UpdateTaskBody>;

export const UpdateTaskRpc = defineRpc({
  subject: 'inbox.v1.tasks.update',
  service: 'inbox',
  request: z.object({ ctx: RequestContextSchema, params: TaskIdParams, body: UpdateTaskBody }),
  response: TaskSchema,
});
export type UpdateTaskRequest = z.infer<typeof UpdateTaskRpc.request>;

export const UpdateTaskRoute = defineRoute({
  operationId: 'updateTask',
  method: 'PATCH',
  path: '/tasks/{task_id}',
  tag: 'tasks',
  summary: 'Update a task',
  description:
    'Changes the given fields (notes, assignee, due_date and remind_at take null or "" to clear). A new remind_at re-arms the ' +
    'reminder (it fires once more, at the new time, and a repeating series starts again from it); reminder_setting ' +
    '{repeat: {frequency, interval, end, on}} makes it repeat (needs a remind_at; one that already fired arms its next occurrence), ' +
    'remind_in ("30 minutes before") sets remind_at from due_date and moves it with due_date; null stops both; closing sets completed_metadata and cancels a pending reminder, reopening ' +
    'clears completed_metadata and lets a reminder that has not fired fire. A task out of reach is 404. Emits task.updated with ' +
    'the replaced fields as previous_attributes; a change of nothing answers the task and emits nothing.',
  params: TaskIdParams,
  body: UpdateTaskBody,
  phone: 'optional',
  rpc: UpdateTaskRpc,
  successStatus: 200,
  response: TaskSchema,
});
