import { z } from 'zod';
import { MediaSchema } from '../../chats/message/message.schema';

const nullableString = z.string().nullable();

/**
 * A note left on a chat by a member (not sent on the network): the columns of `tbl_chat_notes`
 * (@periskope/types), every one present, null where there is no value. Timestamps are ISO 8601.
 */
export const NoteSchema = z.object({
  message_id: z.string(),
  unique_id: nullableString,
  chat_id: nullableString,
  org_id: z.uuid(),
  org_phone: z.string(),
  body: nullableString,
  prev_body: nullableString,
  message_type: nullableString,
  media: MediaSchema.nullable(),
  mentioned_ids: z.array(z.string()).nullable(),
  quoted_message_id: nullableString,
  is_private_note: z.boolean(),
  is_deleted: z.boolean().nullable(),
  from_me: z.boolean().nullable(),
  sender_phone: nullableString,
  performed_by: nullableString,
  sent_message_id: nullableString,
  ack: nullableString,
  timestamp: nullableString,
  updated_at: nullableString,
});
export type Note = z.infer<typeof NoteSchema>;
