import { Errors, type SandboxDevice, type SandboxScanRequest } from '@mapi/contracts';
import { requirePhone } from '../../phones/require-phone';
import type { SandboxPhones } from '../../sandbox/sandbox-phones';

/** POST /sandbox/phones/scan: a person scans the phone's QR with the given number; the phone connects. */
export class SandboxScan {
  constructor(private readonly sandbox: SandboxPhones) {}

  async execute({ ctx, body }: SandboxScanRequest): Promise<SandboxDevice> {
    const phoneId = requirePhone(ctx);
    const device = await this.sandbox.network.device(phoneId);
    if (!device || device.state !== 'QR')
      throw Errors.phoneUnavailable(`The phone shows no QR to scan (state ${device?.state ?? 'not started'})`);
    const next = await this.sandbox.network.setDevice(phoneId, { state: 'CONNECTED', number: body.number, qr: null });
    this.sandbox.notify(phoneId, 'state');
    return this.sandbox.view(next);
  }
}
