import type { SandboxDeleteRequest } from '@mapi/contracts';
import { messageIdOf, pairedWithMessage, receivedBySender } from '../../sandbox/received-message';
import type { SandboxPhones } from '../../sandbox/sandbox-phones';

/** POST /sandbox/messages/delete: the sender of a message the phone received deletes it for everyone (message.deleted follows). */
export class SandboxDeleteMessage {
  constructor(private readonly sandbox: SandboxPhones) {}

  async execute({ ctx, body }: SandboxDeleteRequest) {
    const { device, message } = await pairedWithMessage(this.sandbox, ctx, body.unique_id);
    receivedBySender(message, 'delete');
    if (await this.sandbox.network.changes.delete(message)) this.sandbox.notify(device.phone_id, 'changes');
    return { unique_id: message.unique_id, message_id: messageIdOf(message) };
  }
}
