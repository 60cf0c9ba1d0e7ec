import type { ChatCopy } from '@mapi/contracts';
import { Prisma, type PrismaClient } from '@mapi/db';
import { reachSql, reachesNothing, type ChatReach } from '../rows/chat-reach';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A chat_labels row `l` matching a label named by id or by name (GET /chats?label=, chat-view-repository.ts). */
function labelMatch(label: string): Prisma.Sql {
  const name = label.trim().toLowerCase();
  return UUID.test(label.trim())
    ? Prisma.sql`(l.label_id = ${label.trim()}::uuid OR l.label_name = ${name})`
    : Prisma.sql`l.label_name = ${name}`;
}

/**
 * Counts and label checks asked by the analytics service (chats.v1.chat.count-unread,
 * chats.v1.chat.copies-with-label), with the reach predicate of the chats service's own reads.
 */
export class ChatCountsRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /**
   * Chat copies within reach (and on `phoneId` when given) with unread messages. Without a reader: the
   * copies with unread_count > 0 (the partial index chats_org_unread_idx). With a reader (a console
   * session's member, decision 0091): the copies they have no mark on with unread_count > 0, plus those
   * they marked with an inbound message after the mark (their marks by primary key, then
   * messages_org_chat_recent_idx), as GET /chats?unread=true decides per copy.
   */
  async unreadChats(orgId: string, reach: ChatReach, readerId: string | null, phoneId?: string): Promise<number> {
    if (reachesNothing(reach)) return 0;
    const phone = phoneId === undefined ? Prisma.empty : Prisma.sql`AND c.phone_id = ${phoneId}`;
    const inReach = reachSql(orgId, reach, 'c');
    if (!readerId) {
      const [row] = await this.prisma.$queryRaw<{ n: number }[]>`
        SELECT count(*)::int AS n FROM chats c
        WHERE c.org_id = ${orgId}::uuid AND c.unread_count > 0 ${phone} ${inReach}`;
      return row.n;
    }
    const [row] = await this.prisma.$queryRaw<{ n: number }[]>`
      SELECT
        (SELECT count(*) FROM chats c
          WHERE c.org_id = ${orgId}::uuid AND c.unread_count > 0 ${phone} ${inReach}
            AND NOT EXISTS (SELECT 1 FROM chat_member_reads mr WHERE mr.org_id = c.org_id AND mr.member_id = ${readerId}::uuid
                              AND mr.phone_id = c.phone_id AND mr.chat_id = c.chat_id))
        + (SELECT count(*) FROM chat_member_reads mr JOIN chats c ON c.phone_id = mr.phone_id AND c.chat_id = mr.chat_id AND c.org_id = mr.org_id
          WHERE mr.org_id = ${orgId}::uuid AND mr.member_id = ${readerId}::uuid ${phone} ${inReach}
            AND EXISTS (SELECT 1 FROM messages um WHERE um.org_id = c.org_id AND um.chat_id = c.chat_id AND um.phone_id = c.phone_id
                          AND NOT um.from_me AND um.timestamp > mr.read_at)) AS n`;
    return Number(row.n);
  }

  /** Of the given (phone, chat) copies, those held, within reach and carrying the label (by name or id). */
  async withLabel(orgId: string, reach: ChatReach, copies: ChatCopy[], label: string): Promise<ChatCopy[]> {
    if (!copies.length || reachesNothing(reach)) return [];
    return this.prisma.$queryRaw<ChatCopy[]>`
      SELECT c.phone_id, c.chat_id FROM chats c
      JOIN unnest(${copies.map((x) => x.phone_id)}::text[], ${copies.map((x) => x.chat_id)}::text[]) AS q(phone_id, chat_id)
        ON q.phone_id = c.phone_id AND q.chat_id = c.chat_id
      WHERE c.org_id = ${orgId}::uuid ${reachSql(orgId, reach, 'c')}
        AND EXISTS (SELECT 1 FROM chat_labels l WHERE l.org_id = ${orgId}::uuid AND l.chat_id = c.chat_id AND ${labelMatch(label)})`;
  }
}
