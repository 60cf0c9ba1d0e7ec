import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { PrioritySchema, SubjectSchema } from '../create-ticket/create-ticket.contract';
import { CustomPropertyValuesSchema } from '../update-chat/update-chat.contract';
import {
  AssigneeSchema,
  DueDateSchema,
  TicketIdParams,
  TicketInfoSchema,
  TicketLabelsSchema,
  TicketStatusSchema,
} from '../ticket/ticket-info.schema';

/** Every field optional; `assignee` and `due_date` take null (or "") to clear them. */
export const UpdateTicketBody = z.object({
  assignee: z.union([z.literal('').transform(() => null), z.null(), AssigneeSchema]).optional(),
  due_date: z.union([z.literal('').transform(() => null), z.null(), DueDateSchema]).optional(),
  labels: TicketLabelsSchema.optional(),
  /** The organization's ticket custom properties (type ticket), by name or id; merged, null or "" clears. */
  custom_properties: CustomPropertyValuesSchema.optional(),
  priority: PrioritySchema.optional(),
  status: TicketStatusSchema.optional(),
  subject: SubjectSchema.optional(),
});
export type UpdateTicketBody = z.infer<typeof UpdateTicketBody>;

export const UpdateTicketRpc = defineRpc({
  subject: 'inbox.v1.tickets.update',
  service: 'inbox',
  request: z.object({ ctx: RequestContextSchema, params: TicketIdParams, body: UpdateTicketBody }),
  response: TicketInfoSchema,
});
export type UpdateTicketRequest = z.infer<typeof UpdateTicketRpc.request>;

export const UpdateTicketRoute = defineRoute({
  operationId: 'updateTicket',
  method: 'PATCH',
  path: '/tickets/{ticket_id}',
  tag: 'tickets',
  summary: 'Update a ticket',
  description:
    'Changes the given fields (labels replace the ticket\'s labels; assignee and due_date take null or "" to clear). ' +
    "custom_properties maps a ticket custom property's name (any case) or id to its value, merged into the ticket's " +
    '(null or "" clears one, except a required property\'s); each key is checked against its definition (unknown or a chat ' +
    'property, wrong type, not an option: 422 on body.custom_properties.<key>, nothing changes). ' +
    'Closing sets closed_at and closed_by, reopening clears them. A ticket out of reach is 404. Emits ticket.updated ' +
    'with the changed fields before the change as previous_attributes; a change of nothing answers the ticket and emits nothing.',
  params: TicketIdParams,
  body: UpdateTicketBody,
  phone: 'optional',
  rpc: UpdateTicketRpc,
  successStatus: 200,
  response: TicketInfoSchema,
});
