import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { TicketIdParams, TicketInfoSchema } from '../ticket/ticket-info.schema';

export const GetTicketRpc = defineRpc({
  subject: 'inbox.v1.tickets.get',
  service: 'inbox',
  request: z.object({ ctx: RequestContextSchema, params: TicketIdParams }),
  response: TicketInfoSchema,
});
export type GetTicketRequest = z.infer<typeof GetTicketRpc.request>;

export const GetTicketRoute = defineRoute({
  operationId: 'getTicketById',
  method: 'GET',
  path: '/tickets/{ticket_id}',
  tag: 'tickets',
  summary: 'Get a ticket with its chat and messages',
  description:
    'The ticket with its chat, quoted message and attached messages. A ticket of a phone out of reach (x-phone, or the ' +
    "token's phones), a missing one and another organization's are all 404 NOT_FOUND_ERROR.",
  params: TicketIdParams,
  phone: 'optional',
  rpc: GetTicketRpc,
  successStatus: 200,
  response: TicketInfoSchema,
});
