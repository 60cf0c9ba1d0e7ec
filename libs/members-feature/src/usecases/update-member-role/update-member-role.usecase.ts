import { ErrorCode, Errors, ServiceError, type MemberRow, type UpdateMemberRoleRequest } from '@mapi/contracts';
import { actorOf, requireManager } from '../../access';
import { mapMember } from '../../map-member';
import type { AuditRepository } from '../../repositories/audit-repository';
import type { MemberRepository } from '../../repositories/member-repository';

/**
 * PATCH /members/role: admin or member for the members named by email. All or nothing: an email that
 * is not a member of the organization is a 422, the owner among them a 403, and nothing changes. One
 * audit entry per member whose role changed; the stored access of a member made admin is kept, so a
 * later demotion gives back what they had.
 */
export class UpdateMemberRole {
  constructor(
    private readonly members: MemberRepository,
    private readonly audit: AuditRepository,
  ) {}

  async execute({ ctx, body }: UpdateMemberRoleRequest): Promise<MemberRow[]> {
    requireManager(ctx);
    const emails = [...new Set(body.emails)];
    const found = await this.members.byEmails(ctx.org_id, emails);
    const missing = emails.filter((e) => !found.some((m) => m.email === e));
    if (missing.length) throw Errors.validation({ 'body.emails': { message: 'not a member of this organization', value: missing } });
    if (found.some((m) => m.role === 'owner')) throw new ServiceError(ErrorCode.FORBIDDEN_ERROR, 403, "The owner's role cannot change");
    const changed = found.filter((m) => m.role !== body.role);
    const rows = await this.members.transaction(async (tx) => {
      await this.members.setRole(
        tx,
        ctx.org_id,
        changed.map((m) => m.member_id),
        body.role,
      );
      for (const m of changed) {
        await this.audit.record(tx, ctx.org_id, {
          ...actorOf(ctx),
          action: 'member.role_updated',
          target: m.email,
          details: { from: m.role, to: body.role },
        });
      }
      return this.members.byEmails(ctx.org_id, emails, tx);
    });
    return emails.flatMap((e) => rows.filter((m) => m.email === e).map(mapMember));
  }
}
