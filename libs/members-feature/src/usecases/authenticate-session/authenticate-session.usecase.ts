import type { AuthenticateSessionRequest, AuthenticatedSession } from '@mapi/contracts';
import { labelReach, phoneReach } from '../../map-member';
import type { SessionRepository } from '../../repositories/session-repository';

/**
 * members.v1.sessions.authenticate (the gateway's): the live session behind a cookie's hash, with
 * the member's current role and phones, so a change of access or a removal applies at the next request.
 */
export class AuthenticateSession {
  constructor(private readonly sessions: SessionRepository) {}

  async execute({ token_hash }: AuthenticateSessionRequest): Promise<AuthenticatedSession | null> {
    const s = await this.sessions.liveByTokenHash(token_hash);
    if (!s || !s.member.password_hash) return null;
    return {
      session_id: s.session_id,
      member_id: s.member_id,
      org_id: s.org_id,
      email: s.member.email,
      role: s.member.role as AuthenticatedSession['role'],
      phone_ids: phoneReach(s.member),
      label_ids: labelReach(s.member),
      csrf_hash: s.csrf_hash,
    };
  }
}
