import type { Task, TaskAssociation } from '@mapi/contracts';
import type { TaskRow } from './repositories/task-repository';

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

/** The associated object in short (null for a todo task). */
function association(row: TaskRow): TaskAssociation | null {
  if (row.type === 'todo' || !row.chat_id) return null;
  return { type: row.type as TaskAssociation['type'], chat_id: row.chat_id, message_id: row.message_id, ticket_id: row.ticket_id };
}

/**
 * A task row as the `tbl_org_tasks` row of @periskope/types (the task routes' answer and the task.*
 * events' object): every column present, null where nothing is kept, with `chat_id` and `association`.
 */
export function mapTask(row: TaskRow): Task {
  return {
    task_id: row.task_id,
    org_id: row.org_id,
    type: row.type as Task['type'],
    title: row.title,
    notes: row.notes,
    status: row.status as Task['status'],
    priority: row.priority,
    assignee: row.assignee,
    due_date: iso(row.due_date),
    remind_at: iso(row.remind_at),
    reminder_setting: row.reminder_setting ?? null,
    associated_object_metadata: row.associated_object_metadata ?? null,
    completed_metadata: row.completed_at ? { completed_at: row.completed_at.toISOString(), completed_by: row.completed_by ?? '' } : null,
    created_by: row.created_by,
    created_at: row.created_at.toISOString(),
    last_updated_by: row.last_updated_by,
    last_updated_at: row.last_updated_at.toISOString(),
    chat_id: row.chat_id,
    association: association(row),
  };
}
