import type { Prisma, PrismaClient } from '@mapi/db';

/** A stored member, as `members` holds it. */
export interface MemberRecord {
  member_id: string;
  org_id: string;
  email: string;
  member_name: string | null;
  role: string;
  phones_limited: boolean;
  phone_ids: string[];
  org_phones: string[];
  labels_limited: boolean;
  label_ids: string[];
  password_hash: string | null;
  member_color: string;
  invited_by: string | null;
  invited_at: Date | null;
  joined_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** Access as stored: the limited flags, and the phones (ids and shown numbers) and labels. */
export interface StoredAccess {
  phones_limited: boolean;
  phone_ids: string[];
  org_phones: string[];
  labels_limited: boolean;
  label_ids: string[];
}

/** Every phone and every label (fresh arrays each time: callers fill them). */
export const fullAccess = (): StoredAccess => ({
  phones_limited: false,
  phone_ids: [],
  org_phones: [],
  labels_limited: false,
  label_ids: [],
});

export type Db = PrismaClient | Prisma.TransactionClient;

/**
 * Members of organizations. The organization is the first argument of every method and part of every
 * query, except `activeByEmail` (sign-in: the address is what tells the organization, as a token's
 * hash does for the gateway).
 */
export class MemberRepository {
  constructor(private readonly prisma: PrismaClient) {}

  transaction<T>(fn: (tx: Prisma.TransactionClient) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(fn);
  }

  list(orgId: string): Promise<MemberRecord[]> {
    return this.prisma.member.findMany({ where: { org_id: orgId }, orderBy: [{ created_at: 'asc' }, { member_id: 'asc' }] });
  }

  byEmails(orgId: string, emails: string[], db: Db = this.prisma): Promise<MemberRecord[]> {
    return db.member.findMany({ where: { org_id: orgId, email: { in: emails } }, orderBy: [{ created_at: 'asc' }, { member_id: 'asc' }] });
  }

  byId(orgId: string, memberId: string, db: Db = this.prisma): Promise<MemberRecord | null> {
    return db.member.findFirst({ where: { org_id: orgId, member_id: memberId } });
  }

  /** A member by user_id (a UUID) or email. */
  byIdOrEmail(orgId: string, id: string): Promise<MemberRecord | null> {
    const isUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);
    return this.prisma.member.findFirst({
      where: { org_id: orgId, ...(isUuid ? { member_id: id.toLowerCase() } : { email: id.toLowerCase() }) },
    });
  }

  /** Members of any organization with this address who have a password, oldest membership first. */
  activeByEmail(email: string, orgId?: string): Promise<MemberRecord[]> {
    return this.prisma.member.findMany({
      where: { email, password_hash: { not: null }, ...(orgId ? { org_id: orgId } : {}) },
      orderBy: [{ created_at: 'asc' }, { member_id: 'asc' }],
      take: 20,
    });
  }

  create(
    tx: Db,
    orgId: string,
    data: { member_id: string; email: string; role: string; invited_by: string | null; access: StoredAccess },
  ): Promise<MemberRecord> {
    return tx.member.create({
      data: {
        member_id: data.member_id,
        org_id: orgId,
        email: data.email,
        role: data.role,
        invited_by: data.invited_by,
        invited_at: new Date(),
        ...data.access,
      },
    });
  }

  /** A pending invitee invited again: new role, access and inviter. */
  reinvite(
    tx: Db,
    orgId: string,
    memberId: string,
    data: { role: string; invited_by: string | null; access: StoredAccess },
  ): Promise<MemberRecord> {
    return tx.member.update({
      where: { member_id: memberId, org_id: orgId },
      data: { role: data.role, invited_by: data.invited_by, invited_at: new Date(), ...data.access },
    });
  }

  async setAccess(tx: Db, orgId: string, memberIds: string[], access: StoredAccess): Promise<void> {
    await tx.member.updateMany({ where: { org_id: orgId, member_id: { in: memberIds }, role: 'member' }, data: access });
  }

  /** Sets the role of these members, never the owner's; returns how many changed. */
  async setRole(tx: Db, orgId: string, memberIds: string[], role: 'admin' | 'member'): Promise<number> {
    const { count } = await tx.member.updateMany({
      where: { org_id: orgId, member_id: { in: memberIds }, role: { notIn: ['owner', role] } },
      data: { role },
    });
    return count;
  }

  async join(tx: Db, orgId: string, memberId: string, passwordHash: string, name: string | undefined): Promise<MemberRecord> {
    return tx.member.update({
      where: { member_id: memberId, org_id: orgId },
      data: { password_hash: passwordHash, joined_at: new Date(), ...(name ? { member_name: name } : {}) },
    });
  }

  async delete(tx: Db, orgId: string, memberId: string): Promise<number> {
    const { count } = await tx.member.deleteMany({ where: { org_id: orgId, member_id: memberId } });
    return count;
  }
}
