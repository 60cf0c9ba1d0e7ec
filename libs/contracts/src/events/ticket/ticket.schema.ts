import { z } from 'zod';
import { MessageSchema } from '../../chats/message/message.schema';
import { ChatSchema } from '../chat/chat.schema';

const nullableString = z.string().nullable();
const nullableJson = z.unknown().nullable();

/**
 * A ticket raised on a chat: the columns of `tbl_chat_tickets` (@periskope/types), every one present,
 * null where there is no value; with, as the wider API's ticket events show it, its `chat`, the
 * `quoted_message` it was raised from and its `attached_messages` where known. Timestamps are ISO 8601.
 */
export const TicketSchema = z.object({
  ticket_id: z.string(),
  org_id: z.uuid(),
  chat_id: z.string(),
  subject: z.string(),
  status: z.enum(['open', 'inprogress', 'closed', 'archived']).nullable(),
  /** 0 (none) … 4 (urgent) */
  priority: z.number().nullable(),
  assignee: nullableString,
  assigned_by: nullableString,
  raised_by: nullableString,
  quoted_message_id: nullableString,
  due_date: nullableString,
  first_assigned_at: nullableString,
  closed_at: nullableString,
  close_ticket_metadata: nullableJson,
  custom_properties: nullableJson,
  /** label id → true */
  label_ids: nullableJson,
  response_time: z.number().nullable(),
  is_deleted: z.boolean(),
  created_at: z.string(),
  last_updated_at: z.string(),
  last_updated_by: nullableString,
  hubspot_metadata: nullableJson,
  freshdesk_metadata: nullableJson,
  zohodesk_metadata: nullableJson,
  chat: ChatSchema.optional(),
  quoted_message: MessageSchema.nullable().optional(),
  attached_messages: z.array(MessageSchema).optional(),
});
export type Ticket = z.infer<typeof TicketSchema>;
