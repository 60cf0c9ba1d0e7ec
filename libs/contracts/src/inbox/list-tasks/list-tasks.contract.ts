import { z } from 'zod';
import { ChatIdSchema } from '../../common/ids';
import { RequestContextSchema } from '../../common/request-context';
import { TaskSchema } from '../../events/task/task.schema';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { MAX_PAGE_LIMIT, pageFields, parseTimeBound } from '../../chats/paging/paging';
import { PrioritySchema } from '../create-ticket/create-ticket.contract';
import { AssigneeSchema } from '../ticket/ticket-info.schema';
import { TaskStatusSchema, TaskTypeSchema } from '../task/task-fields';

/** A due_date bound: a date (a whole UTC day: its end for due_before), ISO 8601 date-time or epoch ms. */
const dueBound = (name: string, end: boolean) =>
  z.string().transform((v, ctx) => {
    const at = parseTimeBound(v, end);
    if (!at) {
      ctx.addIssue({
        code: 'custom',
        message: `${name} must be a date (2025-04-25), an ISO 8601 date-time (2025-04-25T00:00:00Z) or epoch milliseconds`,
      });
      return z.NEVER;
    }
    return at.toISOString();
  });

export const ListTasksQuery = z
  .object({
    ...pageFields,
    status: TaskStatusSchema.optional(),
    assignee: AssigneeSchema.optional(),
    priority: PrioritySchema.optional(),
    type: TaskTypeSchema.optional(),
    chat_id: ChatIdSchema.optional(),
    ticket_id: z.uuid({ error: 'ticket_id must be a UUID' }).optional(),
    /** due_date on or before (inclusive) */
    due_before: dueBound('due_before', true).optional(),
    /** due_date on or after (inclusive) */
    due_after: dueBound('due_after', false).optional(),
  })
  .superRefine((q, ctx) => {
    if (q.due_before && q.due_after && q.due_before < q.due_after) {
      ctx.addIssue({ code: 'custom', path: ['due_before'], message: 'due_before must not be before due_after' });
    }
  });
export type ListTasksQuery = z.infer<typeof ListTasksQuery>;

export const ListTasksResponse = z.object({
  from: z.number().int(),
  to: z.number().int(),
  count: z.number().int(),
  tasks: z.array(TaskSchema),
});
export type ListTasksResponse = z.infer<typeof ListTasksResponse>;

export const ListTasksRpc = defineRpc({
  subject: 'inbox.v1.tasks.list',
  service: 'inbox',
  request: z.object({ ctx: RequestContextSchema, query: ListTasksQuery }),
  response: ListTasksResponse,
});
export type ListTasksRequest = z.infer<typeof ListTasksRpc.request>;

export const ListTasksRoute = defineRoute({
  operationId: 'getTasks',
  method: 'GET',
  path: '/tasks',
  tag: 'tasks',
  summary: 'List tasks',
  description:
    "The organization's tasks of the phones within reach (x-phone, else the token's phones) and its todo tasks, newest " +
    'first, as `tbl_org_tasks` rows; filtered by status, assignee, priority, type, chat_id (the associated chat, or the chat ' +
    'of the associated message or ticket), ticket_id, due_before and due_after (inclusive) when given. ' +
    `offset defaults to 0, limit to ${MAX_PAGE_LIMIT}, its maximum (inclusive).`,
  query: ListTasksQuery,
  phone: 'optional',
  rpc: ListTasksRpc,
  successStatus: 200,
  response: ListTasksResponse,
});
