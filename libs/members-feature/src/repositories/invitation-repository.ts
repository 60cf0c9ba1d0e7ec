import type { PrismaClient } from '@mapi/db';
import type { Db } from './member-repository';

export interface InvitationRecord {
  invitation_id: string;
  org_id: string;
  member_id: string;
  expires_at: Date;
  used_at: Date | null;
}

/**
 * Invitation links, kept as the SHA-256 of their token. `byTokenHash` is the one lookup without an
 * organization: the link's token is what tells it.
 */
export class InvitationRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /** A new link for the member; the member's earlier unused links stop working. */
  async replace(
    tx: Db,
    orgId: string,
    data: { invitation_id: string; member_id: string; token_hash: string; expires_at: Date; created_by: string | null },
  ): Promise<void> {
    await tx.memberInvitation.deleteMany({ where: { org_id: orgId, member_id: data.member_id, used_at: null } });
    await tx.memberInvitation.create({ data: { ...data, org_id: orgId } });
  }

  byTokenHash(tokenHash: string): Promise<InvitationRecord | null> {
    return this.prisma.memberInvitation.findUnique({
      where: { token_hash: tokenHash },
      select: { invitation_id: true, org_id: true, member_id: true, expires_at: true, used_at: true },
    });
  }

  /** Marks the link used; false when another request used it first (single use holds under races). */
  async use(tx: Db, orgId: string, invitationId: string, now: Date): Promise<boolean> {
    const { count } = await tx.memberInvitation.updateMany({
      where: { org_id: orgId, invitation_id: invitationId, used_at: null, expires_at: { gt: now } },
      data: { used_at: now },
    });
    return count === 1;
  }
}
