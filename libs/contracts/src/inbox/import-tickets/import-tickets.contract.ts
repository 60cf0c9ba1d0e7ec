import { z } from 'zod';
import { importBatchRpc, importItemFields } from '../../imports/import-batch';

/**
 * One ticket of the source organization: `ticket` is the object GET /tickets/{ticket_id} answers
 * (`TicketInfoType`: `{chat, message, ticket, attached_messages}`) or a GET /tickets row
 * (`tbl_chat_tickets`), its chat, label and property ids already ours; `phone_id` the phone here that
 * holds the chat, when the importer knows it (else the chat's phone here is asked of the chats service).
 */
export const ImportTicketItem = z.looseObject({
  ...importItemFields,
  ticket: z.record(z.string(), z.unknown(), { error: 'ticket must be an object' }),
  phone_id: z.string().min(1).max(200).nullish(),
});
export type ImportTicketItem = z.infer<typeof ImportTicketItem>;

/** The ticket's own fields as the use case reads them (either form's). */
export const ImportTicketFields = z.looseObject({
  chat_id: z.string({ error: 'ticket.chat_id must be a string' }).min(1, 'ticket.chat_id must not be empty'),
  subject: z
    .string({ error: 'ticket.subject must be a string' })
    .trim()
    .min(1, 'ticket.subject must not be empty')
    .max(500, 'ticket.subject is at most 500 characters'),
  status: z
    .enum(['open', 'inprogress', 'closed', 'archived'], { error: 'ticket.status must be open, inprogress, closed or archived' })
    .nullish(),
  priority: z.coerce
    .number({ error: 'ticket.priority must be 1, 2, 3 or 4' })
    .int('ticket.priority must be 1, 2, 3 or 4')
    .min(1, 'ticket.priority must be 1, 2, 3 or 4')
    .max(4, 'ticket.priority must be 1, 2, 3 or 4')
    .nullish(),
});

/** Internal (the importer, docs/services/inbox.md "Import"): tickets with their dates, labels and values. */
export const ImportTicketsRpc = importBatchRpc('inbox.v1.import.tickets', 'inbox');
export type ImportTicketsRequest = z.infer<typeof ImportTicketsRpc.request>;
