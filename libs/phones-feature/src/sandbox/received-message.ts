import { Errors, type RequestContext } from '@mapi/contracts';
import { requirePhone } from '../phones/require-phone';
import type { SandboxMessageRow } from './sandbox-network';
import type { PairedDevice, SandboxPhones } from './sandbox-phones';

/**
 * The x-phone phone's paired device and its message `uniqueId`, for a change made by another person,
 * read in one statement: 400 ERROR when the phone is not paired (SandboxPhones.paired), else 422
 * naming body.unique_id when the phone has no such message.
 */
export async function pairedWithMessage(
  sandbox: SandboxPhones,
  ctx: RequestContext,
  uniqueId: string,
): Promise<{ device: PairedDevice; message: SandboxMessageRow }> {
  const found = await sandbox.network.deviceWithMessage(requirePhone(ctx), uniqueId);
  const device = sandbox.checkPaired(found?.device ?? null);
  if (!found?.message) throw Errors.validation({ 'body.unique_id': { message: 'no message with this unique_id on this phone' } });
  return { device, message: found.message };
}

/** A message only its sender may edit or delete: a message the phone received (the phone's own go through the API). */
export function receivedBySender(message: SandboxMessageRow, what: 'edit' | 'delete'): void {
  if (message.from_me) {
    throw Errors.validation({
      'body.unique_id': { message: `the phone sent this message: ${what} it with POST /message/{message_id}/${what}` },
    });
  }
  if (message.is_deleted) throw Errors.validation({ 'body.unique_id': { message: 'the message was deleted' } });
}

export const messageIdOf = (m: SandboxMessageRow) => `${m.from_me}_${m.chat_id}_${m.unique_id}`;
