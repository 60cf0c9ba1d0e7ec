import { z } from 'zod';

const nullableString = z.string().nullable();
const nullableJson = z.unknown().nullable();

/** What a task is about: nothing (todo), a chat, a message of a chat, or a ticket. */
export const TASK_TYPES = ['todo', 'chat', 'message', 'ticket'] as const;
/** Task statuses (`TaskType['status']` of @periskope/types). */
export const TASK_STATUSES = ['open', 'inprogress', 'closed'] as const;

/** The associated object in short: its kind and ids (null for a todo task). */
export const TaskAssociationSchema = z.object({
  type: z.enum(['chat', 'message', 'ticket']),
  chat_id: z.string(),
  message_id: nullableString,
  ticket_id: nullableString,
});
export type TaskAssociation = z.infer<typeof TaskAssociationSchema>;

/**
 * A task: the columns of `tbl_org_tasks` (@periskope/types), every one present, null where there is
 * no value (`associated_object_metadata` as `AssociatedObjectMetadataType`, `completed_metadata` as
 * `{completed_at, completed_by}` once closed), with `chat_id` and `association` beside them (the
 * associated object's chat and ids, as the hosted service's task object shows them). Timestamps are
 * ISO 8601. The task.* events carry it as `data`; the task routes answer it.
 */
export const TaskSchema = z.object({
  task_id: z.string(),
  org_id: z.uuid(),
  type: z.enum(TASK_TYPES),
  title: z.string(),
  notes: nullableString,
  status: z.enum(TASK_STATUSES),
  /** 1 low … 4 urgent */
  priority: z.number().int(),
  assignee: nullableString,
  due_date: nullableString,
  remind_at: nullableString,
  /** `{remind_in: null, repeat: {frequency, interval, end, on}}` for a repeating reminder; null otherwise. */
  reminder_setting: nullableJson,
  associated_object_metadata: nullableJson,
  completed_metadata: z.object({ completed_at: z.string(), completed_by: z.string() }).nullable(),
  created_by: z.string(),
  created_at: z.string(),
  last_updated_by: z.string(),
  last_updated_at: z.string(),
  chat_id: nullableString,
  association: TaskAssociationSchema.nullable(),
});
export type Task = z.infer<typeof TaskSchema>;
