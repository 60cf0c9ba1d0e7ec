import { Errors, type SandboxAckRequest } from '@mapi/contracts';
import type { SandboxPhones } from '../../sandbox/sandbox-phones';

/** POST /sandbox/acks: acks move up only (1 server, 2 delivered, 3 read, 4 played); -1 fails a message not yet delivered. */
export class SandboxAck {
  constructor(private readonly sandbox: SandboxPhones) {}

  async execute({ ctx, body }: SandboxAckRequest) {
    const device = await this.sandbox.paired(ctx);
    const message = await this.sandbox.network.message(device.phone_id, body.unique_id);
    if (!message) throw Errors.validation({ 'body.unique_id': { message: 'no message with this unique_id on this phone' } });
    if (!message.from_me) throw Errors.validation({ 'body.unique_id': { message: 'acks belong to messages the phone sent (from_me)' } });
    if (body.ack === -1 ? message.ack >= 2 : body.ack <= message.ack) {
      throw Errors.validation({
        'body.ack': { message: `ack ${body.ack} cannot follow ${message.ack}: acks only move up, and -1 only before delivery` },
      });
    }
    await this.sandbox.network.setAck(message.id, body.ack);
    this.sandbox.notify(device.phone_id, 'messages');
    return { unique_id: body.unique_id, ack: body.ack };
  }
}
