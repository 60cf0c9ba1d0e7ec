import type { ResetPhoneRequest } from '@mapi/contracts';
import type { SessionCommands } from '@mapi/events';
import { requirePhone } from '../../phones/require-phone';

/** POST /phones/reset: logs the phone out, so it goes back to QR. Needs its session to be running (400 otherwise). */
export class ResetPhone {
  constructor(private readonly sessions: SessionCommands) {}

  async execute({ ctx }: ResetPhoneRequest): Promise<null> {
    await this.sessions.require(requirePhone(ctx), 'logout');
    return null;
  }
}
