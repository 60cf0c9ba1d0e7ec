import { z } from 'zod';
import { ChatIdSchema } from '../../common/ids';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { CustomPropertyValuesSchema } from '../update-chat/update-chat.contract';
import { AssigneeSchema, DueDateSchema, TicketInfoSchema, TicketLabelsSchema, TicketStatusSchema } from '../ticket/ticket-info.schema';

/** Priority 1 (low) … 4 (urgent), as a number or its digit. */
export const PrioritySchema = z.preprocess(
  (v) => (typeof v === 'string' && /^\s*[0-9]+\s*$/.test(v) ? Number(v) : v),
  z
    .number({ error: 'priority must be 1, 2, 3 or 4' })
    .int('priority must be 1, 2, 3 or 4')
    .min(1, 'priority must be 1, 2, 3 or 4')
    .max(4, 'priority must be 1, 2, 3 or 4'),
);

export const SubjectSchema = z
  .string({ error: 'subject must be a string' })
  .trim()
  .min(1, 'subject must not be empty')
  .max(500, 'subject is at most 500 characters');

export const CreateTicketBody = z.object({
  chat_id: ChatIdSchema,
  subject: SubjectSchema,
  assignee: AssigneeSchema.optional(),
  quoted_message_id: z
    .string({ error: 'quoted_message_id must be a string' })
    .min(1, 'quoted_message_id must not be empty')
    .max(512, 'quoted_message_id is too long')
    .optional(),
  due_date: DueDateSchema.optional(),
  priority: PrioritySchema.optional(),
  status: TicketStatusSchema.optional(),
  labels: TicketLabelsSchema.optional(),
  /** Ours (the hosted body has none): ticket custom property values by name or id, checked as in PATCH. */
  custom_properties: CustomPropertyValuesSchema.optional(),
});

export const CreateTicketRpc = defineRpc({
  subject: 'inbox.v1.tickets.create',
  service: 'inbox',
  request: z.object({ ctx: RequestContextSchema, headers: z.record(z.string(), z.string()).optional(), body: CreateTicketBody }),
  response: TicketInfoSchema,
});
export type CreateTicketRequest = z.infer<typeof CreateTicketRpc.request>;

export const CreateTicketRoute = defineRoute({
  operationId: 'createTicket',
  method: 'POST',
  path: '/tickets/create',
  tag: 'tickets',
  summary: 'Create a ticket on a chat',
  description:
    "Raises a ticket on a chat that a phone within reach (x-phone, else the token's phones) has; the ticket belongs to that " +
    "phone. A chat out of reach (missing, another organization's) is 404. priority defaults to 1, status to open; labels are " +
    'comma-separated and case-insensitive; assignee is an email kept as given. quoted_message_id must name a message of the ' +
    'chat (422 otherwise); that message is attached to the ticket (its message_ticket_id). custom_properties (ours) sets ticket ' +
    'custom property values by name or id, checked as in PATCH /tickets/{ticket_id} (422 on body.custom_properties.<key>). Emits ticket.created. An Idempotency-Key header makes a repeat of the request answer the ticket it made; another ' +
    'request under the same key is 422.',
  body: CreateTicketBody,
  phone: 'optional',
  headers: ['idempotency-key'],
  rpc: CreateTicketRpc,
  successStatus: 200,
  response: TicketInfoSchema,
});
