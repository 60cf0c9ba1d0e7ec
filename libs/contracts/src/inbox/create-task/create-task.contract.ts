import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { TaskSchema } from '../../events/task/task.schema';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { PrioritySchema } from '../create-ticket/create-ticket.contract';
import { AssigneeSchema } from '../ticket/ticket-info.schema';
import {
  ReminderSettingSchema,
  TaskAssociationInput,
  TaskNotesSchema,
  TaskStatusSchema,
  TaskTitleSchema,
  TaskTypeSchema,
  associationType,
  taskDate,
} from '../task/task-fields';

export const CreateTaskBody = z
  .object({
    title: TaskTitleSchema,
    /** Optional: the association's kind (todo without one); when given it must agree with it. */
    type: TaskTypeSchema.optional(),
    association: TaskAssociationInput.optional(),
    notes: TaskNotesSchema.optional(),
    assignee: AssigneeSchema.optional(),
    due_date: taskDate('due_date').optional(),
    remind_at: taskDate('remind_at').optional(),
    /** `{remind_in, repeat}`: remind_in ("30 minutes before") sets remind_at from due_date; repeat makes the reminder repeat. */
    reminder_setting: ReminderSettingSchema.nullable().optional(),
    priority: PrioritySchema.optional(),
    status: TaskStatusSchema.optional(),
  })
  .superRefine((b, ctx) => {
    if (b.reminder_setting?.remind_in) {
      if (!b.due_date)
        ctx.addIssue({
          code: 'custom',
          path: ['reminder_setting', 'remind_in'],
          message: 'remind_in is relative to the due date: give due_date',
        });
      if (b.remind_at)
        ctx.addIssue({ code: 'custom', path: ['remind_at'], message: 'give remind_at or reminder_setting.remind_in, not both' });
    } else if (b.reminder_setting?.repeat && !b.remind_at) {
      ctx.addIssue({
        code: 'custom',
        path: ['reminder_setting', 'repeat'],
        message: 'a repeating reminder needs remind_at (its first time) or reminder_setting.remind_in',
      });
    }
    if (b.type === undefined) return;
    const kind = associationType(b.association);
    if (b.type === kind) return;
    if (b.association === undefined)
      ctx.addIssue({ code: 'custom', path: ['association'], message: `a ${b.type} task needs its association` });
    else ctx.addIssue({ code: 'custom', path: ['type'], message: `type ${b.type} does not match the association (a ${kind})` });
  });
export type CreateTaskBody = z.infer<typeof CreateTaskBody>;

export const CreateTaskRpc = defineRpc({
  subject: 'inbox.v1.tasks.create',
  service: 'inbox',
  request: z.object({ ctx: RequestContextSchema, body: CreateTaskBody }),
  response: TaskSchema,
});
export type CreateTaskRequest = z.infer<typeof CreateTaskRpc.request>;

export const CreateTaskRoute = defineRoute({
  operationId: 'createTask',
  method: 'POST',
  path: '/tasks/create',
  tag: 'tasks',
  summary: 'Create a task',
  description:
    'A task with a title and, optionally, notes, assignee (an email), due_date, remind_at, priority (1–4, default 1), status ' +
    '(open|inprogress|closed, default open) and an association: {chat_id} a chat, {chat_id, message_id} a message of it, ' +
    "{ticket_id} a ticket, each within reach (x-phone, else the token's phones; out of reach or another organization's is 404, " +
    'a message not of the chat 422); without one it is a todo. The task belongs to the phone that holds the object. ' +
    'At remind_at (once; at once if it has passed) task.reminder is emitted; with reminder_setting.repeat ({frequency, interval ' +
    'days|weeks|months|years, end never|after|on, on: a count for after, a date for on}) the next reminder is armed when one fires; reminder_setting.remind_in ("<n> minutes|hours|days before|after", with due_date, ' +
    'instead of remind_at) sets remind_at relative to the due date. ' +
    'Emits task.created.',
  body: CreateTaskBody,
  phone: 'optional',
  rpc: CreateTaskRpc,
  successStatus: 200,
  response: TaskSchema,
});
