import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { TicketIdParams } from '../ticket/ticket-info.schema';

export const DeleteTicketRpc = defineRpc({
  subject: 'inbox.v1.tickets.delete',
  service: 'inbox',
  request: z.object({ ctx: RequestContextSchema, params: TicketIdParams }),
  response: z.null(),
});
export type DeleteTicketRequest = z.infer<typeof DeleteTicketRpc.request>;

export const DeleteTicketRoute = defineRoute({
  operationId: 'deleteTicket',
  method: 'DELETE',
  path: '/tickets/{ticket_id}',
  tag: 'tickets',
  summary: 'Delete a ticket',
  description:
    'Marks a ticket in reach deleted (`is_deleted`): it leaves GET /tickets and GET /tickets/{ticket_id} answers 404 for it ' +
    'from then on. Emits ticket.deleted with the ticket as it was. A ticket out of reach, a missing one, another ' +
    "organization's and one already deleted are all 404 NOT_FOUND_ERROR (nothing changes). Answers 204.",
  params: TicketIdParams,
  phone: 'optional',
  rpc: DeleteTicketRpc,
  successStatus: 204,
});
