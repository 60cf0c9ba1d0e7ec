import { z } from 'zod';
import { importBatchRpc, importItemFields } from '../../imports/import-batch';

/**
 * One task of the source organization as GET /tasks answers it (`association` {chat_id, message_id,
 * ticket_id}, `completed_metadata`), or a `tbl_org_tasks` row; a top-level `ticket_id` or `chat_id`
 * (the importer's translation) wins over the association's.
 */
export const ImportTaskItem = z.looseObject({
  ...importItemFields,
  title: z.string({ error: 'title must be a string' }).trim().min(1, 'title must not be empty').max(500, 'title is at most 500 characters'),
  type: z.enum(['todo', 'chat', 'message', 'ticket'], { error: 'type must be todo, chat, message or ticket' }).nullish(),
  status: z.enum(['open', 'inprogress', 'closed'], { error: 'status must be open, inprogress or closed' }).nullish(),
  priority: z.coerce
    .number({ error: 'priority must be 1, 2, 3 or 4' })
    .int('priority must be 1, 2, 3 or 4')
    .min(1, 'priority must be 1, 2, 3 or 4')
    .max(4, 'priority must be 1, 2, 3 or 4')
    .nullish(),
  notes: z.string().max(10_000, 'notes is at most 10,000 characters').nullish(),
  association: z
    .looseObject({ chat_id: z.string().nullish(), message_id: z.string().nullish(), ticket_id: z.string().nullish() })
    .nullish(),
  chat_id: z.string().nullish(),
  message_id: z.string().nullish(),
  ticket_id: z.string().nullish(),
  completed_metadata: z.looseObject({ completed_at: z.string().nullish(), completed_by: z.string().nullish() }).nullish(),
});
export type ImportTaskItem = z.infer<typeof ImportTaskItem>;

/** Internal (the importer, docs/services/inbox.md "Import"): tasks; reminders already past never fire. */
export const ImportTasksRpc = importBatchRpc('inbox.v1.import.tasks', 'inbox');
export type ImportTasksRequest = z.infer<typeof ImportTasksRpc.request>;
