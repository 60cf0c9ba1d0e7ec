import { ErrorCode, Errors, ServiceError, type DeleteMemberRequest } from '@mapi/contracts';
import { actorOf, requireManager } from '../../access';
import type { AuditRepository } from '../../repositories/audit-repository';
import type { MemberRepository } from '../../repositories/member-repository';

/**
 * DELETE /members/{id} (user_id or email): the member, their invitation links and sessions go (the
 * foreign keys cascade), so a signed-in browser is refused at its next request. Not the owner (403).
 */
export class DeleteMember {
  constructor(
    private readonly members: MemberRepository,
    private readonly audit: AuditRepository,
  ) {}

  async execute({ ctx, params }: DeleteMemberRequest): Promise<null> {
    requireManager(ctx);
    const member = await this.members.byIdOrEmail(ctx.org_id, params.id);
    if (!member) throw Errors.notFound('Member not found');
    if (member.role === 'owner') throw new ServiceError(ErrorCode.FORBIDDEN_ERROR, 403, 'The owner of the organization cannot be removed');
    await this.members.transaction(async (tx) => {
      if (!(await this.members.delete(tx, ctx.org_id, member.member_id))) throw Errors.notFound('Member not found');
      await this.audit.record(tx, ctx.org_id, {
        ...actorOf(ctx),
        action: 'member.removed',
        target: member.email,
        details: { role: member.role },
      });
    });
    return null;
  }
}
