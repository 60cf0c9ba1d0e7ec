import { z } from 'zod';
import { ChatViewSchema } from '../../chats/chat/chat-view.schema';

const nullableString = z.string().nullable();

/** Ticket statuses (`enum_chat_tickets_status` of @periskope/types). */
export const TICKET_STATUSES = ['open', 'inprogress', 'closed', 'archived'] as const;
export const TicketStatusSchema = z.enum(TICKET_STATUSES, { error: 'status must be one of open, inprogress, closed, archived' });

/**
 * A message as a ticket shows it (`TicketInfoType.message` / `attached_messages` of @periskope/types):
 * a summary of the spec 2.1 message. `sender_name` is null: messages keep no sender name here.
 */
export const TicketMessageSchema = z.object({
  body: nullableString,
  chat_id: z.string(),
  org_phone: z.string(),
  timestamp: z.string(),
  media_path: nullableString,
  message_id: z.string(),
  sender_name: nullableString,
  performed_by: nullableString,
  sender_phone: nullableString,
});
export type TicketMessage = z.infer<typeof TicketMessageSchema>;

/** `TicketInfoType.ticket`: the ticket's fields under the names the public client reads. */
export const TicketInfoTicketSchema = z.object({
  ticket_id: z.uuid(),
  org_id: z.uuid(),
  chat_id: z.string(),
  status: TicketStatusSchema,
  subject: z.string(),
  assignee: nullableString,
  due_date: nullableString,
  /** 1 low, 2 medium, 3 high, 4 urgent */
  priority: z.number().int(),
  raised_by: nullableString,
  created_at: z.string(),
  assigned_by: nullableString,
  /** The ticket's labels, comma-separated (lower case). */
  ticket_labels: z.string(),
  quoted_message_id: nullableString,
  ticket_custom_properties: z.record(z.string(), z.string()).nullable(),
  closed_at: nullableString,
  closed_by: nullableString,
  closed_message: nullableString,
  first_assigned_at: nullableString,
  is_deleted: z.boolean(),
});

/**
 * The answer of POST /tickets/create, GET and PATCH /tickets/{ticket_id}: `TicketInfoType` of
 * @periskope/types — the chat (as GET /chats/{chat_id} gives it, with `chat_labels`), the quoted
 * message (null when the ticket quotes none), the ticket, and the messages attached to it.
 */
export const TicketInfoSchema = z.object({
  chat: ChatViewSchema.extend({ chat_labels: nullableString }),
  message: TicketMessageSchema.nullable(),
  ticket: TicketInfoTicketSchema,
  attached_messages: z.array(TicketMessageSchema),
});
export type TicketInfo = z.infer<typeof TicketInfoSchema>;

/** `ticket_id`: the UUID the ticket was created with. */
export const TicketIdParams = z.object({ ticket_id: z.uuid({ error: 'ticket_id must be a UUID' }) });

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** An assignee: an email (members do not exist yet; the address is kept as given, lower case). */
export const AssigneeSchema = z
  .string({ error: 'assignee must be a string' })
  .trim()
  .max(320, 'assignee is too long')
  .refine((v) => EMAIL.test(v), { message: 'assignee must be an email address' })
  .transform((v) => v.toLowerCase());

/** Comma-separated labels, case-insensitive: kept trimmed, lower case, without empties or repeats. */
// The service validates the request again after the gateway: the parsed form (a list) must parse too.
export const TicketLabelsSchema = z
  .union([z.string().max(2000, 'labels is too long'), z.array(z.string().max(100)).max(100)], {
    error: 'labels must be a comma-separated string',
  })
  .transform((v, ctx) => {
    const labels = [...new Set((typeof v === 'string' ? v.split(',') : v).map((l) => l.trim().toLowerCase()).filter(Boolean))];
    if (labels.some((l) => l.length > 100)) {
      ctx.addIssue({ code: 'custom', message: 'a label is at most 100 characters' });
      return z.NEVER;
    }
    return labels;
  });

/** A due date: any string that reads as a date ("2025-04-09 18:29:59+00", ISO 8601, epoch ms), kept as ISO 8601. */
export const DueDateSchema = z
  .string({ error: 'due_date must be a date string' })
  .max(100, 'due_date is too long')
  .transform((v, ctx) => {
    const at = parseDate(v);
    if (!at) {
      ctx.addIssue({ code: 'custom', message: 'due_date must be a date, e.g. 2025-04-09 18:29:59+00 or 2025-04-09T18:29:59Z' });
      return z.NEVER;
    }
    return at.toISOString();
  });

const DATE_LIKE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?)?(Z|[+-]\d{2}(:?\d{2})?)?$/i;

/** A date string as Postgres prints one (`+00` offsets), ISO 8601, or epoch milliseconds; null when none. */
export function parseDate(value: string): Date | null {
  const v = value.trim();
  if (/^\d{10,16}$/.test(v)) return new Date(Number(v));
  if (!DATE_LIKE.test(v)) return null;
  const [y, m, d] = v.slice(0, 10).split('-').map(Number);
  const day = new Date(Date.UTC(y, m - 1, d));
  if (day.getUTCFullYear() !== y || day.getUTCMonth() !== m - 1 || day.getUTCDate() !== d) return null;
  // a date alone is that day at midnight UTC (its "-dd" is not an offset)
  if (v.length === 10) return day;
  let iso = v
    .replace(' ', 'T')
    .replace(/([+-]\d{2})$/, '$1:00')
    .replace(/([+-]\d{2})(\d{2})$/, '$1:$2');
  if (!/(Z|[+-]\d{2}:\d{2})$/i.test(iso)) iso += 'Z';
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) || at.getUTCFullYear() > 9999 ? null : at;
}
