import { Errors, type PairingCodeRequest, type PairingCodeResponse } from '@mapi/contracts';
import type { SessionCommands } from '@mapi/events';
import { requirePhone } from '../../phones/require-phone';

/** POST /phones/pairing-code: pairing by code, only while the phone waits to be paired; 400 ERROR otherwise. */
export class RequestPairingCode {
  constructor(private readonly sessions: SessionCommands) {}

  async execute({ ctx, body }: PairingCodeRequest): Promise<PairingCodeResponse> {
    const phoneId = requirePhone(ctx);
    const answer = await this.sessions.send(phoneId, { cmd: 'pairing-code', number: body.number });
    if (answer === 'no-session') throw Errors.phoneUnavailable("The phone's server is unreachable: its session is not running");
    if (!answer.ok || !answer.pairing_code)
      throw Errors.phoneUnavailable(`No pairing code: ${answer.ok ? 'the network gave none' : answer.message}`);
    return { phone_id: phoneId, pairing_code: answer.pairing_code };
  }
}
