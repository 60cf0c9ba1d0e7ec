import type { Reaction } from '@mapi/contracts';
import type { Prisma } from '@mapi/db';

/**
 * The one place a stored reaction becomes the reaction object (the columns of the wider API's
 * tbl_chat_reactions). `msg_id` is the key of the message reacted to, in the form of the message's
 * `id`; the reaction's own network key, ack and read state are not kept here (null).
 */
export function mapReaction(
  row: Prisma.MessageReactionModel,
  reacted: { from_me: boolean; unique_id: string },
  orgPhone: string,
): Reaction {
  return {
    reaction_id: row.reaction_id,
    message_id: row.message_id,
    msg_id: { from_me: reacted.from_me, id: reacted.unique_id, remote: row.chat_id, serialized: row.message_id },
    chat_id: row.chat_id,
    org_id: row.org_id,
    org_phone: orgPhone,
    sender_id: row.sender_phone,
    sender_phone: row.sender_phone,
    reaction: row.reaction,
    timestamp: row.reacted_at.toISOString(),
    unique_id: row.reaction_id,
    id: null,
    ack: null,
    read: null,
    orphan: null,
    orphan_reason: null,
  };
}
