import { z } from 'zod';
import { MessageSchema } from '../../chats/message/message.schema';

/**
 * A reaction to a message: the columns of `tbl_chat_reactions` (@periskope/types), every one present,
 * null where the network gives no value; plus `sender_phone` (= sender_id, the name this service
 * used first). A taken-back reaction has `reaction: ''`.
 */
export const ReactionSchema = z.object({
  /** The reaction's own id inside the network. */
  reaction_id: z.string(),
  /** The message reacted to (spec 2.1 message_id). */
  message_id: z.string(),
  /** The key of the message reacted to, as the message's `id`. */
  msg_id: MessageSchema.shape.id.nullable(),
  chat_id: z.string().nullable(),
  org_id: z.uuid(),
  org_phone: z.string(),
  /** Contact id of who reacted. */
  sender_id: z.string(),
  sender_phone: z.string(),
  /** The emoji; '' when the sender took the reaction back. */
  reaction: z.string().nullable(),
  /** ISO 8601: when the sender reacted. */
  timestamp: z.string().nullable(),
  unique_id: z.string().nullable(),
  id: z.unknown().nullable(),
  ack: z.number().nullable(),
  read: z.boolean().nullable(),
  orphan: z.number().nullable(),
  orphan_reason: z.string().nullable(),
});
export type Reaction = z.infer<typeof ReactionSchema>;
