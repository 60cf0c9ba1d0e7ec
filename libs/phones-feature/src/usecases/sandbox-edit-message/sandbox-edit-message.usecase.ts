import type { SandboxEditRequest } from '@mapi/contracts';
import { messageIdOf, pairedWithMessage, receivedBySender } from '../../sandbox/received-message';
import type { SandboxPhones } from '../../sandbox/sandbox-phones';

/** POST /sandbox/messages/edit: the sender of a message the phone received edits it (message.updated follows). */
export class SandboxEditMessage {
  constructor(private readonly sandbox: SandboxPhones) {}

  async execute({ ctx, body }: SandboxEditRequest) {
    const { device, message } = await pairedWithMessage(this.sandbox, ctx, body.unique_id);
    receivedBySender(message, 'edit');
    if (await this.sandbox.network.changes.edit(message, body.body)) this.sandbox.notify(device.phone_id, 'changes');
    return { unique_id: message.unique_id, message_id: messageIdOf(message) };
  }
}
