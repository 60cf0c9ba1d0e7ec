import { defineEvent } from '../define-event';
import { TaskSchema } from './task.schema';

export const TaskCreatedEvent = defineEvent({
  name: 'task.created',
  subject: 'events.v1.task.created',
  summary: 'A task was created (POST /tasks/create).',
  data: TaskSchema,
});

export const TaskUpdatedEvent = defineEvent({
  name: 'task.updated',
  subject: 'events.v1.task.updated',
  summary: 'A task changed (PATCH /tasks/{task_id}); previous_attributes holds the replaced values.',
  data: TaskSchema,
});

export const TaskDeletedEvent = defineEvent({
  name: 'task.deleted',
  subject: 'events.v1.task.deleted',
  summary: 'A task was deleted (DELETE /tasks/{task_id}); data is the task as it was.',
  data: TaskSchema,
});

export const TaskReminderEvent = defineEvent({
  name: 'task.reminder',
  subject: 'events.v1.task.reminder',
  summary: "A task's reminder is due (its remind_at): emitted once per remind_at, by the inbox service.",
  data: TaskSchema,
});
