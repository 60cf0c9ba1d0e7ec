import type { PrismaClient } from '@mapi/db';
import { reachSql, type MemberChatAccess } from '../rows/chat-reach';

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
   * Marks the chat read on the given phones' copies (null: every phone of the organization): unread
   * count 0. Returns how many copies exist within reach (0: the caller cannot see the chat). For a
   * member, only the copies within their labels and overrides (rows/chat-reach.ts).
   */
  async markRead(orgId: string, chatId: string, phoneIds: string[] | null, member: MemberChatAccess | null = null): Promise<number> {
    if (member) {
      const copies = await this.prisma.$queryRaw<{ phone_id: string }[]>`
        SELECT c.phone_id FROM chats c WHERE c.org_id = ${orgId}::uuid AND c.chat_id = ${chatId} ${reachSql(orgId, { phoneIds, member }, 'c')}`;
      return copies.length
        ? this.markRead(
            orgId,
            chatId,
            copies.map((c) => c.phone_id),
          )
        : 0;
    }
    if (phoneIds && phoneIds.length === 0) return 0;
    const scope = phoneIds ? { phone_id: { in: phoneIds } } : {};
    const where = { org_id: orgId, chat_id: chatId, ...scope };
    const seen = await this.prisma.chat.count({ where });
    if (seen)
      await this.prisma.chat.updateMany({
        where: { ...where, unread_count: { not: 0 } },
        data: { unread_count: 0, updated_at: new Date() },
      });
    return seen;
  }
}
