import { Errors, type RequestContext, type SandboxDevice } from '@mapi/contracts';
import type { NatsConnection } from 'nats';
import { requirePhone } from '../phones/require-phone';
import { sandboxNotifySubject } from './sandbox-connector';
import type { DeviceRow, SandboxNetwork } from './sandbox-network';

export type PairedDevice = DeviceRow & { number: string };

/**
 * What the sandbox control use cases share: the network's tables, and the nudge that tells a
 * phone's session to read them. Each change is written to the tables first, then the session is nudged.
 */
export class SandboxPhones {
  constructor(
    readonly network: SandboxNetwork,
    private readonly nc: NatsConnection,
    private readonly namespace: string,
  ) {}

  /** `changes`: only edits, deletions or reactions were made (the session then reads only those). */
  notify(phoneId: string, kind: 'state' | 'messages' | 'changes' | 'groups'): void {
    this.nc.publish(sandboxNotifySubject(this.namespace, phoneId), JSON.stringify({ kind }));
  }

  /** The x-phone phone's device, which must be paired (400 ERROR otherwise). */
  async paired(ctx: RequestContext): Promise<PairedDevice> {
    return this.checkPaired(await this.network.device(requirePhone(ctx)));
  }

  /** The device if it is paired (400 ERROR otherwise). */
  checkPaired(device: DeviceRow | null): PairedDevice {
    if (!device?.number || device.state === 'LOGGED_OUT')
      throw Errors.phoneUnavailable('The sandbox phone is not paired: scan its QR first (POST /v1/sandbox/phones/scan)');
    return device as PairedDevice;
  }

  view(d: DeviceRow): SandboxDevice {
    return { phone_id: d.phone_id, state: d.state, number: d.number || null };
  }
}
