import { Errors, type SignOutEverywhereRequest } from '@mapi/contracts';
import type { SessionRepository } from '../../repositories/session-repository';

/** POST /auth/sign-out-everywhere: ends every open session of the signed-in member, this one too. */
export class SignOutEverywhere {
  constructor(private readonly sessions: SessionRepository) {}

  async execute({ ctx }: SignOutEverywhereRequest): Promise<{ sessions_ended: number }> {
    if (!ctx.member) throw Errors.unauthorized('Sign-out needs a console session');
    return { sessions_ended: await this.sessions.revokeAll(ctx.org_id, ctx.member.member_id) };
  }
}
