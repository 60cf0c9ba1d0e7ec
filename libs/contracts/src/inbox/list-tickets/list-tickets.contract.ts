import { z } from 'zod';
import { ChatIdSchema } from '../../common/ids';
import { RequestContextSchema } from '../../common/request-context';
import { TicketSchema } from '../../events/ticket/ticket.schema';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { MAX_PAGE_LIMIT, pageFields } from '../../chats/paging/paging';
import { AssigneeSchema, TicketStatusSchema } from '../ticket/ticket-info.schema';

export const ListTicketsQuery = z.object({
  ...pageFields,
  status: TicketStatusSchema.optional(),
  assignee: AssigneeSchema.optional(),
  chat_id: ChatIdSchema.optional(),
  label: z.string().trim().min(1, 'label must not be empty').max(100, 'label is at most 100 characters').transform((v) => v.toLowerCase()).optional(),
});
export type ListTicketsQuery = z.infer<typeof ListTicketsQuery>;

export const ListTicketsResponse = z.object({
  from: z.number().int(),
  to: z.number().int(),
  count: z.number().int(),
  tickets: z.array(TicketSchema),
});
export type ListTicketsResponse = z.infer<typeof ListTicketsResponse>;

export const ListTicketsRpc = defineRpc({
  subject: 'inbox.v1.tickets.list',
  service: 'inbox',
  request: z.object({ ctx: RequestContextSchema, query: ListTicketsQuery }),
  response: ListTicketsResponse,
});
export type ListTicketsRequest = z.infer<typeof ListTicketsRpc.request>;

export const ListTicketsRoute = defineRoute({
  operationId: 'getTickets',
  method: 'GET',
  path: '/tickets',
  tag: 'tickets',
  summary: 'List tickets',
  description:
    'The organization\'s tickets of the phones within reach (x-phone, else the token\'s phones), newest first, as ' +
    '`tbl_chat_tickets` rows; filtered by status, assignee, chat_id and label when given. ' +
    `offset defaults to 0, limit to ${MAX_PAGE_LIMIT}, its maximum (inclusive).`,
  query: ListTicketsQuery,
  phone: 'optional',
  rpc: ListTicketsRpc,
  successStatus: 200,
  response: ListTicketsResponse,
});
