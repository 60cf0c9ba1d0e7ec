import type { PrismaClient } from '@mapi/db';
import { reachSql, reachesNothing, type ChatReach, type MemberChatAccess } from '../rows/chat-reach';

/** A phone that may act on a chat: its id and its own contact id (`<digits>@c.us`). */
export interface ActingCandidate {
  phone_id: string;
  org_phone: string;
}

/** Chat reads of the chats service. The organization is part of every signature. */
export class ChatRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /**
   * Of the given phones, those that have the chat (and, with needAdmin, are an admin of the group
   * there), as phone ids.
   */
  async phonesWithChat(orgId: string, chatId: string, phones: readonly ActingCandidate[], needAdmin: boolean): Promise<Set<string>> {
    if (!phones.length) return new Set();
    const rows = await this.prisma.$queryRaw<{ phone_id: string }[]>`
      SELECT c.phone_id
      FROM chats c
      JOIN unnest(${phones.map((p) => p.phone_id)}::text[], ${phones.map((p) => p.org_phone)}::text[]) AS p(phone_id, org_phone) ON p.phone_id = c.phone_id
      WHERE c.org_id = ${orgId}::uuid AND c.chat_id = ${chatId}
        AND (${!needAdmin} OR EXISTS (
          SELECT 1 FROM group_participants g
          WHERE g.phone_id = c.phone_id AND g.chat_id = c.chat_id AND g.contact_id = p.org_phone AND g.is_admin))`;
    return new Set(rows.map((r) => r.phone_id));
  }

  /**
   * A console member's read (decision 0091): their mark on each copy within reach (the x-phone
   * phone's only, when given), at now or the copy's newest message if that is later (a phone's clock
   * ahead); never moved back. The copies' unread_count (the phones', the API's) is left as it is.
   * Returns the phones whose copy was marked (none: the member cannot see the chat).
   */
  async markReadByMember(orgId: string, chatId: string, reach: ChatReach, memberId: string): Promise<string[]> {
    if (reachesNothing(reach)) return [];
    const marked = await this.prisma.$queryRaw<{ phone_id: string }[]>`
      INSERT INTO chat_member_reads (org_id, member_id, phone_id, chat_id, read_at)
      SELECT c.org_id, ${memberId}::uuid, c.phone_id, c.chat_id, GREATEST(now(), COALESCE(c.latest_message_at, now()))
      FROM chats c WHERE c.org_id = ${orgId}::uuid AND c.chat_id = ${chatId} ${reachSql(orgId, reach, 'c')}
      ON CONFLICT (org_id, member_id, phone_id, chat_id) DO UPDATE SET read_at = GREATEST(chat_member_reads.read_at, EXCLUDED.read_at)
      RETURNING phone_id`;
    return marked.map((m) => m.phone_id);
  }

  /**
   * Marks the chat read on the given phones' copies (null: every phone of the organization): unread
   * count 0. Returns how many copies exist within reach (0: the caller cannot see the chat). For a
   * member, only the copies within their labels and overrides (rows/chat-reach.ts).
   */
  async markRead(orgId: string, chatId: string, phoneIds: string[] | null, member: MemberChatAccess | null = null): Promise<number> {
    return (await this.markReadOn(orgId, chatId, phoneIds, member)).length;
  }

  /** markRead answering the phones whose copy of the chat is within reach (each is told, for the network's read mark). */
  async markReadOn(orgId: string, chatId: string, phoneIds: string[] | null, member: MemberChatAccess | null = null): Promise<string[]> {
    if (member) {
      const copies = await this.prisma.$queryRaw<{ phone_id: string }[]>`
        SELECT c.phone_id FROM chats c WHERE c.org_id = ${orgId}::uuid AND c.chat_id = ${chatId} ${reachSql(orgId, { phoneIds, member }, 'c')}`;
      return copies.length
        ? this.markReadOn(
            orgId,
            chatId,
            copies.map((c) => c.phone_id),
          )
        : [];
    }
    if (phoneIds && phoneIds.length === 0) return [];
    const scope = phoneIds ? { phone_id: { in: phoneIds } } : {};
    const where = { org_id: orgId, chat_id: chatId, ...scope };
    const seen = await this.prisma.chat.findMany({ where, select: { phone_id: true } });
    if (seen.length)
      await this.prisma.chat.updateMany({
        where: { ...where, unread_count: { not: 0 } },
        data: { unread_count: 0, updated_at: new Date() },
      });
    return seen.map((c) => c.phone_id);
  }
}
