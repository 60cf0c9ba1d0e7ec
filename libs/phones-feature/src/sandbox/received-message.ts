import { Errors } from '@mapi/contracts';
import type { SandboxMessageRow } from './sandbox-network';
import type { SandboxPhones } from './sandbox-phones';

/**
 * The message `uniqueId` of the phone's history, for a change made by another person: 422 naming
 * body.unique_id when the phone has no such message.
 */
export async function messageOfPhone(sandbox: SandboxPhones, phoneId: string, uniqueId: string): Promise<SandboxMessageRow> {
  const message = await sandbox.network.message(phoneId, uniqueId);
  if (!message) throw Errors.validation({ 'body.unique_id': { message: 'no message with this unique_id on this phone' } });
  return message;
}

/** A message only its sender may edit or delete: a message the phone received (the phone's own go through the API). */
export function receivedBySender(message: SandboxMessageRow, what: 'edit' | 'delete'): void {
  if (message.from_me) {
    throw Errors.validation({ 'body.unique_id': { message: `the phone sent this message: ${what} it with POST /message/{message_id}/${what}` } });
  }
  if (message.is_deleted) throw Errors.validation({ 'body.unique_id': { message: 'the message was deleted' } });
}

export const messageIdOf = (m: SandboxMessageRow) => `${m.from_me}_${m.chat_id}_${m.unique_id}`;
