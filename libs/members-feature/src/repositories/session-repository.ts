import type { PrismaClient } from '@mapi/db';
import type { Db, MemberRecord } from './member-repository';

export interface SessionRecord {
  session_id: string;
  org_id: string;
  member_id: string;
  csrf_hash: string;
  expires_at: Date;
  created_at: Date;
}

/**
 * Console sessions, kept as the SHA-256 of their cookie token and of their CSRF token. `liveByTokenHash`
 * is the one lookup without an organization: the cookie is what tells it.
 */
export class SessionRepository {
  constructor(private readonly prisma: PrismaClient) {}

  async create(
    orgId: string,
    data: { session_id: string; member_id: string; token_hash: string; csrf_hash: string; expires_at: Date },
    db: Db = this.prisma,
  ): Promise<SessionRecord> {
    return db.memberSession.create({ data: { ...data, org_id: orgId } });
  }

  /** The session and its member, when not revoked, not expired and the member still exists. */
  async liveByTokenHash(tokenHash: string, now = new Date()): Promise<(SessionRecord & { member: MemberRecord }) | null> {
    const row = await this.prisma.memberSession.findUnique({ where: { token_hash: tokenHash }, include: { member: true } });
    if (!row || row.revoked_at || row.expires_at <= now) return null;
    return row;
  }

  byId(orgId: string, sessionId: string): Promise<SessionRecord | null> {
    return this.prisma.memberSession.findFirst({ where: { org_id: orgId, session_id: sessionId, revoked_at: null } });
  }

  async revoke(orgId: string, sessionId: string): Promise<void> {
    await this.prisma.memberSession.updateMany({
      where: { org_id: orgId, session_id: sessionId, revoked_at: null },
      data: { revoked_at: new Date() },
    });
  }

  /** Ends every open session of the member; how many there were. */
  async revokeAll(orgId: string, memberId: string): Promise<number> {
    const { count } = await this.prisma.memberSession.updateMany({
      where: { org_id: orgId, member_id: memberId, revoked_at: null },
      data: { revoked_at: new Date() },
    });
    return count;
  }
}
