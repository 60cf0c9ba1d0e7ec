import { Errors, type MeRequest, type MeResponse } from '@mapi/contracts';
import type { z } from 'zod';
import { mapMember, phoneReach } from '../../map-member';
import type { MemberRepository } from '../../repositories/member-repository';
import type { SessionRepository } from '../../repositories/session-repository';

/** GET /auth/me: the signed-in member, their role and reach, and the session's times. */
export class Me {
  constructor(
    private readonly members: MemberRepository,
    private readonly sessions: SessionRepository,
  ) {}

  async execute({ ctx }: MeRequest): Promise<z.infer<typeof MeResponse>> {
    if (!ctx.member) throw Errors.unauthorized('This route needs a console session');
    const [member, session] = await Promise.all([
      this.members.byId(ctx.org_id, ctx.member.member_id),
      this.sessions.byId(ctx.org_id, ctx.member.session_id),
    ]);
    if (!member || !session) throw Errors.unauthorized('The session has ended');
    return {
      member: mapMember(member),
      org_id: member.org_id,
      role: member.role as 'owner' | 'admin' | 'member',
      phone_ids: phoneReach(member),
      session: { created_at: session.created_at.toISOString(), expires_at: session.expires_at.toISOString() },
    };
  }
}
