import { Errors, type MessageKey, type RequestContext } from '@mapi/contracts';
import { chatReach } from '../rows/chat-reach';
import type { HeldMessage, MessageRefRepository } from '../repositories/message-ref-repository';

/**
 * The message `ref` names among the copies within the request's reach: 404 when none (an unknown
 * id, a queue id not sent yet, another organization's message and, for a member, a message of a
 * chat outside their labels and overrides answer the same).
 */
export async function messageInReach(messages: MessageRefRepository, ctx: RequestContext, ref: string): Promise<HeldMessage> {
  const reach = chatReach(ctx);
  const row = await messages.find(ctx.org_id, ref, reach.phoneIds, reach.member);
  if (!row) throw Errors.notFound(`No message ${ref} on the phones within reach (a queued message is found by its queue id once sent)`);
  return row;
}

/** The message as the network knows it (the acting phone's session acts on this key). */
export function networkKey(row: HeldMessage): MessageKey {
  return { chat_id: row.chat_id, unique_id: row.unique_id, from_me: row.from_me, sender_phone: row.sender_phone };
}

/** An action the message does not allow: 422 naming message_id (spec 7: a clear error, the field named). */
export function refused(ref: string, message: string): Error {
  return Errors.validation({ message_id: { message, value: ref } }, message);
}

/** Polls cannot be edited or forwarded (the public client's documentation). */
export const isPoll = (row: HeldMessage) => row.message_type === 'poll_creation' || row.message_type === 'poll';
