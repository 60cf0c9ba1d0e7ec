import { z } from 'zod';
import { ChatIdSchema } from '../../common/ids';
import { RequestContextSchema } from '../../common/request-context';
import { TicketSchema } from '../../events/ticket/ticket.schema';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { MAX_PAGE_LIMIT, pageFields } from '../../chats/paging/paging';
import { AssigneeSchema, TicketStatusSchema } from '../ticket/ticket-info.schema';
import { MAX_PROPERTY_VALUE_LENGTH } from '../update-chat/update-chat.contract';

const PAIR = ['custom_property', 'custom_property_value'] as const;

export const ListTicketsQuery = z
  .object({
    ...pageFields,
    status: TicketStatusSchema.optional(),
    assignee: AssigneeSchema.optional(),
    chat_id: ChatIdSchema.optional(),
    label: z
      .string()
      .trim()
      .min(1, 'label must not be empty')
      .max(100, 'label is at most 100 characters')
      .transform((v) => v.toLowerCase())
      .optional(),
    custom_property: z
      .string()
      .trim()
      .min(1, 'custom_property must not be empty')
      .max(100, 'custom_property is at most 100 characters')
      .optional(),
    custom_property_value: z
      .string()
      .min(1, 'custom_property_value must not be empty')
      .max(MAX_PROPERTY_VALUE_LENGTH, `custom_property_value is at most ${MAX_PROPERTY_VALUE_LENGTH} characters`)
      .optional(),
  })
  .superRefine((q, ctx) => {
    const [given, missing] = q.custom_property === undefined ? [PAIR[1], PAIR[0]] : [PAIR[0], PAIR[1]];
    if ((q.custom_property === undefined) !== (q.custom_property_value === undefined)) {
      ctx.addIssue({ code: 'custom', path: [missing], message: `${missing} is required with ${given}` });
    }
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
    "The organization's tickets of the phones within reach (x-phone, else the token's phones), newest first, as " +
    '`tbl_chat_tickets` rows; filtered by status, assignee, chat_id and label when given, and by a ticket custom ' +
    "property's value: custom_property (the property's id, or its name in any case) with custom_property_value, " +
    "read as the property's type as when it is set (a number or date as written, a boolean true/false, a dropdown " +
    'option in any case) and matched exactly; an unknown property (or a chat property) is 422 on custom_property, ' +
    'a value not of its type 422 on custom_property_value, one of the two without the other 422 too. ' +
    `offset defaults to 0, limit to ${MAX_PAGE_LIMIT}, its maximum (inclusive).`,
  query: ListTicketsQuery,
  phone: 'optional',
  rpc: ListTicketsRpc,
  successStatus: 200,
  response: ListTicketsResponse,
});
