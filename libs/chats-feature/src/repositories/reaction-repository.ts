import type { Prisma, PrismaClient } from '@mapi/db';
import { reachSql, reachesNothing, type MemberChatAccess } from '../rows/chat-reach';

/** A stored reaction with the number of the phone whose copy it is (from that phone's chat row). */
export type ReactionRow = Prisma.MessageReactionModel & { org_phone: string | null };

export interface ReactionPage {
  /** Phones whose copies to read; null: every phone of the organization. */
  phoneIds: string[] | null;
  /** A member's labels and overrides (rows/chat-reach.ts); absent: phones only. */
  member?: MemberChatAccess | null;
  chatId?: string;
  messageId?: string;
  /** ISO 8601 bounds of reacted_at, inclusive. */
  start?: string;
  end?: string;
  offset: number;
  limit: number;
}

/** Reaction reads of the chats service. The organization is part of every signature. */
export class ReactionRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /** The reactions that stand (not taken back), newest first, by the (org_id, reacted_at) index. */
  async list(orgId: string, page: ReactionPage): Promise<ReactionRow[]> {
    const reach = { phoneIds: page.phoneIds, member: page.member ?? null };
    if (reachesNothing(reach)) return [];
    return this.prisma.$queryRaw<ReactionRow[]>`
      SELECT r.*, c.org_phone
      FROM message_reactions r
      LEFT JOIN chats c ON c.phone_id = r.phone_id AND c.chat_id = r.chat_id
      WHERE r.org_id = ${orgId}::uuid AND r.reaction <> '' ${reachSql(orgId, reach, 'r')}
        AND (${page.chatId ?? null}::text IS NULL OR r.chat_id = ${page.chatId ?? null})
        AND (${page.messageId ?? null}::text IS NULL OR r.message_id = ${page.messageId ?? null})
        AND (${page.start ?? null}::timestamptz IS NULL OR r.reacted_at >= ${page.start ?? null}::timestamptz)
        AND (${page.end ?? null}::timestamptz IS NULL OR r.reacted_at <= ${page.end ?? null}::timestamptz)
      ORDER BY r.reacted_at DESC, r.phone_id, r.message_id, r.sender_phone
      OFFSET ${page.offset} LIMIT ${page.limit}`;
  }
}
