import { z } from 'zod';
import { ChatIdSchema } from '../../common/ids';
import { TASK_STATUSES, TASK_TYPES } from '../../events/task/task.schema';
import { parseDate } from '../ticket/ticket-info.schema';

export const TaskStatusSchema = z.enum(TASK_STATUSES, { error: 'status must be one of open, inprogress, closed' });
export const TaskTypeSchema = z.enum(TASK_TYPES, { error: 'type must be one of todo, chat, message, ticket' });

export const TaskTitleSchema = z.string({ error: 'title must be a string' }).trim().min(1, 'title must not be empty').max(500, 'title is at most 500 characters');
export const TaskNotesSchema = z.string({ error: 'notes must be a string' }).max(10_000, 'notes is at most 10000 characters');

/** A date field ("2025-04-09 18:29:59+00", ISO 8601, epoch ms), kept as ISO 8601. */
export const taskDate = (name: string) =>
  z.string({ error: `${name} must be a date string` }).max(100, `${name} is too long`).transform((v, ctx) => {
    const at = parseDate(v);
    if (!at) {
      ctx.addIssue({ code: 'custom', message: `${name} must be a date, e.g. 2025-04-09 18:29:59+00 or 2025-04-09T18:29:59Z` });
      return z.NEVER;
    }
    return at.toISOString();
  });

/**
 * The associated object, by its ids: `{chat_id}` a chat, `{chat_id, message_id}` a message of that
 * chat, `{ticket_id}` a ticket. Exactly one of these forms.
 */
export const TaskAssociationInput = z
  .object(
    {
      chat_id: ChatIdSchema.optional(),
      message_id: z.string({ error: 'message_id must be a string' }).min(1, 'message_id must not be empty').max(512, 'message_id is too long').optional(),
      ticket_id: z.uuid({ error: 'ticket_id must be a UUID' }).optional(),
    },
    { error: 'association must be an object: {chat_id}, {chat_id, message_id} or {ticket_id}' },
  )
  .superRefine((a, ctx) => {
    if (a.ticket_id !== undefined && (a.chat_id !== undefined || a.message_id !== undefined)) {
      ctx.addIssue({ code: 'custom', path: ['ticket_id'], message: 'a ticket association takes ticket_id alone' });
    } else if (a.message_id !== undefined && a.chat_id === undefined) {
      ctx.addIssue({ code: 'custom', path: ['chat_id'], message: 'a message association needs the chat_id of its chat' });
    } else if (a.ticket_id === undefined && a.chat_id === undefined) {
      ctx.addIssue({ code: 'custom', message: 'association must name chat_id, chat_id and message_id, or ticket_id' });
    }
  });
export type TaskAssociationInput = z.infer<typeof TaskAssociationInput>;

/** The kind of object an association names. */
export function associationType(a: TaskAssociationInput | undefined): (typeof TASK_TYPES)[number] {
  if (!a) return 'todo';
  if (a.ticket_id) return 'ticket';
  return a.message_id ? 'message' : 'chat';
}

/** `task_id`: the UUID the task was created with. */
export const TaskIdParams = z.object({ task_id: z.uuid({ error: 'task_id must be a UUID' }) });
