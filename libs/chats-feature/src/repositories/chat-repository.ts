import type { PrismaClient } from '@mapi/db';

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
}
