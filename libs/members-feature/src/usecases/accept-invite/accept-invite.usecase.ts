import { Errors, type AcceptInvitationRequest, type IssuedSession } from '@mapi/contracts';
import type { AuditRepository } from '../../repositories/audit-repository';
import type { InvitationRepository } from '../../repositories/invitation-repository';
import type { MemberRepository } from '../../repositories/member-repository';
import type { SessionRepository } from '../../repositories/session-repository';
import { hashPassword, sha256Hex } from '../../secrets';
import { openSession } from '../../sessions';

const invalidLink = () =>
  Errors.validation({ token: { message: 'the invitation link is unknown, used or expired: ask for a new one' } }, 'Invalid invitation');

/**
 * POST /auth/accept-invite: the link's token (stored as its SHA-256) names one pending member; its
 * password is set (argon2id), the link is used up in the same transaction (a second use, even a
 * concurrent one, is refused) and a session opens.
 */
export class AcceptInvite {
  constructor(
    private readonly members: MemberRepository,
    private readonly invitations: InvitationRepository,
    private readonly sessions: SessionRepository,
    private readonly audit: AuditRepository,
    private readonly sessionTtlSeconds: number,
  ) {}

  async execute({ body }: AcceptInvitationRequest): Promise<IssuedSession> {
    const now = new Date();
    const invitation = await this.invitations.byTokenHash(sha256Hex(body.token));
    if (!invitation || invitation.used_at || invitation.expires_at <= now) throw invalidLink();
    const passwordHash = await hashPassword(body.password);
    return this.members.transaction(async (tx) => {
      if (!(await this.invitations.use(tx, invitation.org_id, invitation.invitation_id, now))) throw invalidLink();
      const member = await this.members.join(tx, invitation.org_id, invitation.member_id, passwordHash, body.name);
      await this.audit.record(tx, member.org_id, {
        actor_type: 'member',
        actor_id: member.member_id,
        actor_email: member.email,
        action: 'member.joined',
        target: member.email,
      });
      return openSession(this.sessions, member, this.sessionTtlSeconds, tx);
    });
  }
}
