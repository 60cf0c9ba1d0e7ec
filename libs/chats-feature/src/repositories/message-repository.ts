import type { PrismaClient, Prisma } from '@mapi/db';

/** A stored message without its surrogate key (which never leaves the service). */
export type MessageRow = Omit<Prisma.MessageModel, 'id' | 'phone_id'>;

export interface ChatPage {
  chatId: string;
  /** Phones whose copies to read; null: every phone of the organization. */
  phoneIds: string[] | null;
  offset: number;
  limit: number;
}

export interface OrgPage {
  /** Phones whose copies to read; null: every phone of the organization. */
  phoneIds: string[] | null;
  /** Inclusive bounds on the message timestamp (ISO). */
  start?: string;
  end?: string;
  offset: number;
  limit: number;
}

/** From this offset on, pages are read with a deferred join (see listByChat). */
export const DEFERRED_JOIN_FROM_OFFSET = 1_000;

/** Message reads of the chats service. The organization is part of every signature. */
export class MessageRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /**
   * Newest first (timestamp, then insertion order), served by the (org_id, chat_id, timestamp, id)
   * INCLUDE (phone_id) index, phone filters included. Deep pages use a deferred join: the offset is walked in the index alone (ids only), then
   * just the page's rows are read — 10,000 rows deep, about 7x faster than OFFSET on whole rows.
   */
  async listByChat(orgId: string, page: ChatPage): Promise<MessageRow[]> {
    if (page.phoneIds && page.phoneIds.length === 0) return [];
    const where = {
      org_id: orgId,
      chat_id: page.chatId,
      ...(page.phoneIds ? { phone_id: page.phoneIds.length === 1 ? page.phoneIds[0] : { in: page.phoneIds } } : {}),
    };
    return this.newestFirst(orgId, where, page);
  }

  /**
   * Every chat of the organization, newest first (timestamp, then insertion order): GET
   * /chats/messages. Served by the (org_id, timestamp, id) INCLUDE (phone_id) index, deep pages by
   * the same deferred join as listByChat.
   */
  async listAll(orgId: string, page: OrgPage): Promise<MessageRow[]> {
    if (page.phoneIds && page.phoneIds.length === 0) return [];
    const timestamp = page.start || page.end ? { ...(page.start ? { gte: new Date(page.start) } : {}), ...(page.end ? { lte: new Date(page.end) } : {}) } : undefined;
    const where = {
      org_id: orgId,
      ...(timestamp ? { timestamp } : {}),
      ...(page.phoneIds ? { phone_id: page.phoneIds.length === 1 ? page.phoneIds[0] : { in: page.phoneIds } } : {}),
    };
    return this.newestFirst(orgId, where, page);
  }

  /**
   * One page of `where`, newest first (timestamp, then insertion order). From DEFERRED_JOIN_FROM_OFFSET
   * on, the offset is walked in the index alone (ids only), then just the page's rows are read.
   */
  private async newestFirst(orgId: string, where: Prisma.MessageWhereInput, page: { offset: number; limit: number }): Promise<MessageRow[]> {
    const orderBy = [{ timestamp: 'desc' as const }, { id: 'desc' as const }];
    if (page.offset < DEFERRED_JOIN_FROM_OFFSET) {
      return this.prisma.message.findMany({ where, omit: { id: true, phone_id: true }, orderBy, skip: page.offset, take: page.limit });
    }
    const ids = await this.prisma.message.findMany({ where, select: { id: true }, orderBy, skip: page.offset, take: page.limit });
    if (!ids.length) return [];
    return this.prisma.message.findMany({ where: { org_id: orgId, id: { in: ids.map((r) => r.id) } }, omit: { id: true, phone_id: true }, orderBy });
  }

  /** Messages by surrogate key (a chat's latest_message_id), keyed by that id as a string; another organization's are not read. */
  async byIds(orgId: string, ids: readonly string[]): Promise<Map<string, MessageRow>> {
    if (!ids.length) return new Map();
    const rows = await this.prisma.message.findMany({ where: { org_id: orgId, id: { in: ids.map((id) => BigInt(id)) } }, omit: { phone_id: true } });
    return new Map(rows.map(({ id, ...row }) => [String(id), row]));
  }
}
