import type { ResyncPhoneRequest } from '@mapi/contracts';
import type { SessionCommands } from '@mapi/events';
import { requirePhone } from '../../phones/require-phone';

/** POST /phones/resync (spec 4.6): triggers a full resync; 400 ERROR when the phone is disconnected or its server unreachable. */
export class ResyncPhone {
  constructor(private readonly sessions: SessionCommands) {}

  async execute({ ctx }: ResyncPhoneRequest): Promise<null> {
    await this.sessions.require(requirePhone(ctx), 'resync');
    return null;
  }
}
