import type { RestartPhoneRequest } from '@mapi/contracts';
import type { SessionCommands } from '@mapi/events';
import { requirePhone } from '../../phones/require-phone';

/** POST /phones/restart: restarts the session; when none runs, the next scan starts it anyway. */
export class RestartPhone {
  constructor(private readonly sessions: SessionCommands) {}

  async execute({ ctx }: RestartPhoneRequest): Promise<null> {
    await this.sessions.send(requirePhone(ctx), 'restart');
    return null;
  }
}
