import { randomUUID } from 'node:crypto';
import type { InviteMembersRequest, InviteMembersResult, PhoneDirectory } from '@mapi/contracts';
import { actorOf, requireManager, resolveAccess } from '../../access';
import type { InviteMailer } from '../../mail/invite-mailer';
import { mapMember } from '../../map-member';
import type { AuditRepository } from '../../repositories/audit-repository';
import type { InvitationRepository } from '../../repositories/invitation-repository';
import { fullAccess, type MemberRecord, type MemberRepository } from '../../repositories/member-repository';
import { newSecret, sha256Hex } from '../../secrets';

export interface InviteSettings {
  consoleBaseUrl: string;
  inviteTtlHours: number;
}

/** `<console>/accept-invite#token=…`: in the fragment, so the token reaches no server log on the way. */
export const inviteUrl = (consoleBaseUrl: string, token: string) => `${consoleBaseUrl.replace(/\/+$/, '')}/accept-invite#token=${token}`;

/**
 * POST /members/invite: a member row and a single-use, expiring link per address (only the link's
 * SHA-256 is stored). An address already active here is an entry of `errors`; a pending one gets a
 * fresh link (the old one stops working) and the new role and access. Rows, links and audit entries
 * are one transaction; mails go out after it, and a link that could not be mailed goes back to the inviter.
 */
export class InviteMembers {
  constructor(
    private readonly members: MemberRepository,
    private readonly invitations: InvitationRepository,
    private readonly audit: AuditRepository,
    private readonly directory: PhoneDirectory,
    private readonly mailer: InviteMailer,
    private readonly settings: InviteSettings,
  ) {}

  async execute({ ctx, body }: InviteMembersRequest): Promise<InviteMembersResult> {
    requireManager(ctx);
    const role = body.role ?? 'member';
    const access = role === 'admin' ? fullAccess() : await resolveAccess(this.directory, ctx.org_id, body);
    const emails = [...new Set(body.emails)];
    const actor = actorOf(ctx);
    const invitedBy = actor.actor_email ?? actor.actor_id;
    const expiresAt = new Date(Date.now() + this.settings.inviteTtlHours * 3600_000);
    const errors: InviteMembersResult['errors'] = [];
    const invited: { member: MemberRecord; token: string }[] = [];

    await this.members.transaction(async (tx) => {
      const existing = await this.members.byEmails(ctx.org_id, emails, tx);
      for (const email of emails) {
        const found = existing.find((m) => m.email === email);
        if (found?.password_hash || found?.role === 'owner') {
          errors.push({ email, error: { message: 'already a member of this organization' } });
          continue;
        }
        const member = found
          ? await this.members.reinvite(tx, ctx.org_id, found.member_id, { role, invited_by: invitedBy, access })
          : await this.members.create(tx, ctx.org_id, { member_id: randomUUID(), email, role, invited_by: invitedBy, access });
        const token = newSecret();
        await this.invitations.replace(tx, ctx.org_id, {
          invitation_id: randomUUID(),
          member_id: member.member_id,
          token_hash: sha256Hex(token),
          expires_at: expiresAt,
          created_by: invitedBy,
        });
        await this.audit.record(tx, ctx.org_id, {
          ...actor,
          action: 'member.invited',
          target: email,
          details: { role, reinvited: Boolean(found) },
        });
        invited.push({ member, token });
      }
    });

    const invitations: InviteMembersResult['invitations'] = [];
    for (const { member, token } of invited) {
      const url = inviteUrl(this.settings.consoleBaseUrl, token);
      const mailed = await this.mailer.send({ to: member.email, url, inviter: actor.actor_email, expiresAt });
      invitations.push({
        email: member.email,
        expires_at: expiresAt.toISOString(),
        delivery: mailed ? 'email' : 'link',
        invite_url: mailed ? null : url,
      });
    }
    return { addedMembers: invited.map((i) => mapMember(i.member)), errors, invitations };
  }
}
