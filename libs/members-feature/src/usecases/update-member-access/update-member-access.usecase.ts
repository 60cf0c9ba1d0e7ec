import { Errors, type MemberRow, type PhoneDirectory, type UpdateMemberAccessRequest } from '@mapi/contracts';
import { actorOf, requireManager, resolveAccess } from '../../access';
import { mapMember } from '../../map-member';
import type { AuditRepository } from '../../repositories/audit-repository';
import type { MemberRepository } from '../../repositories/member-repository';

/**
 * PATCH /members/access: org_phones and label_ids of members (role member) by email; owners and admins
 * reach everything and come back unchanged. All or nothing: an email that is not a member of the
 * organization is a 422 and nothing changes. One audit entry per member changed.
 */
export class UpdateMemberAccess {
  constructor(
    private readonly members: MemberRepository,
    private readonly audit: AuditRepository,
    private readonly directory: PhoneDirectory,
  ) {}

  async execute({ ctx, body }: UpdateMemberAccessRequest): Promise<MemberRow[]> {
    requireManager(ctx);
    const emails = [...new Set(body.emails)];
    const found = await this.members.byEmails(ctx.org_id, emails);
    const missing = emails.filter((e) => !found.some((m) => m.email === e));
    if (missing.length) throw Errors.validation({ 'body.emails': { message: 'not a member of this organization', value: missing } });
    const access = await resolveAccess(this.directory, ctx.org_id, body);
    const changed = found.filter((m) => m.role === 'member');
    const rows = await this.members.transaction(async (tx) => {
      await this.members.setAccess(
        tx,
        ctx.org_id,
        changed.map((m) => m.member_id),
        access,
      );
      for (const m of changed) {
        await this.audit.record(tx, ctx.org_id, {
          ...actorOf(ctx),
          action: 'member.access_updated',
          target: m.email,
          details: {
            org_phones: access.phones_limited ? access.org_phones : null,
            label_ids: access.labels_limited ? access.label_ids : null,
          },
        });
      }
      return this.members.byEmails(ctx.org_id, emails, tx);
    });
    return emails.flatMap((e) => rows.filter((m) => m.email === e).map(mapMember));
  }
}
