import { Errors, type SignOutRequest } from '@mapi/contracts';
import type { SessionRepository } from '../../repositories/session-repository';

/** POST /auth/sign-out: ends the caller's console session (the gateway clears the cookies). */
export class SignOut {
  constructor(private readonly sessions: SessionRepository) {}

  async execute({ ctx }: SignOutRequest): Promise<null> {
    if (!ctx.member) throw Errors.unauthorized('Sign-out needs a console session');
    await this.sessions.revoke(ctx.org_id, ctx.member.session_id);
    return null;
  }
}
