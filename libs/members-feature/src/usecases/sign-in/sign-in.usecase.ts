import { Errors, type IssuedSession, type SignInRequest } from '@mapi/contracts';
import type { MemberRepository } from '../../repositories/member-repository';
import type { SessionRepository } from '../../repositories/session-repository';
import { verifyNothing, verifyPassword } from '../../secrets';
import { openSession } from '../../sessions';

export const badCredentials = () => Errors.unauthorized('Wrong email or password');

/**
 * POST /auth/sign-in: the membership of this address whose password matches (the given org_id's, or
 * the oldest), and a new session. An unknown address costs one argon2 verification too and reads the
 * same 401, so neither the answer nor its time tells whether an address is a member. The gateway
 * counts each attempt per address and per client before it gets here, gives back the successful
 * ones, and throttles (docs/services/members.md).
 */
export class SignIn {
  constructor(
    private readonly members: MemberRepository,
    private readonly sessions: SessionRepository,
    private readonly sessionTtlSeconds: number,
  ) {}

  async execute({ body }: SignInRequest): Promise<IssuedSession> {
    const candidates = await this.members.activeByEmail(body.email, body.org_id);
    if (!candidates.length) {
      await verifyNothing(body.password);
      throw badCredentials();
    }
    for (const member of candidates) {
      if (member.password_hash && (await verifyPassword(member.password_hash, body.password))) {
        return openSession(this.sessions, member, this.sessionTtlSeconds);
      }
    }
    throw badCredentials();
  }
}
