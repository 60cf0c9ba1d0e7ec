import type { ChatCopy } from '@mapi/contracts';
import type { PrismaClient } from '@mapi/db';
import { reachSql, reachesNothing, type ChatReach } from '../rows/chat-reach';

/**
 * Reach checks asked by other services (chats.v1.chat.copies-in-reach, the send side of
 * chats.v1.chat.in-reach), with the same predicate as the chats service's own reads (chat-reach.ts).
 */
export class ReachRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /** Of the given (phone, chat) copies, those held (a chats row) and within reach. */
  async copies(orgId: string, reach: ChatReach, copies: ChatCopy[]): Promise<ChatCopy[]> {
    if (!copies.length || reachesNothing(reach)) return [];
    return this.prisma.$queryRaw<ChatCopy[]>`
      SELECT c.phone_id, c.chat_id FROM chats c
      JOIN unnest(${copies.map((x) => x.phone_id)}::text[], ${copies.map((x) => x.chat_id)}::text[]) AS q(phone_id, chat_id)
        ON q.phone_id = c.phone_id AND q.chat_id = c.chat_id
      WHERE c.org_id = ${orgId}::uuid ${reachSql(orgId, reach, 'c')}`;
  }

  /**
   * Of the given chat ids, those a member who sees every label may start: no phone within their
   * phones holds it yet, and no override denies it to them.
   */
  async startable(orgId: string, reach: ChatReach, chatIds: string[]): Promise<string[]> {
    const m = reach.member;
    if (!m || m.labels !== null || (reach.phoneIds && !reach.phoneIds.length)) return [];
    const rows = await this.prisma.$queryRaw<{ chat_id: string }[]>`
      SELECT id AS chat_id FROM unnest(${chatIds}::text[]) AS id
      WHERE NOT EXISTS (SELECT 1 FROM chats c WHERE c.org_id = ${orgId}::uuid AND c.chat_id = id
                          AND (${reach.phoneIds === null} OR c.phone_id = ANY(${reach.phoneIds ?? []}::text[])))
        AND NOT EXISTS (SELECT 1 FROM chat_properties ov WHERE ov.org_id = ${orgId}::uuid AND ov.chat_id = id
                          AND ov.override_chat_access -> ${m.email}::text = 'false'::jsonb)`;
    return rows.map((r) => r.chat_id);
  }
}
