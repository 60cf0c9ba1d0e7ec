import type { SandboxDevice, SandboxStateRequest } from '@mapi/contracts';
import type { SandboxPhones } from '../../sandbox/sandbox-phones';

/** POST /sandbox/phones/state: the paired phone connects, disconnects or becomes unreachable. */
export class SandboxSetState {
  constructor(private readonly sandbox: SandboxPhones) {}

  async execute({ ctx, body }: SandboxStateRequest): Promise<SandboxDevice> {
    const device = await this.sandbox.paired(ctx);
    const next = await this.sandbox.network.setDevice(device.phone_id, { state: body.state });
    this.sandbox.notify(device.phone_id, 'state');
    return this.sandbox.view(next);
  }
}
