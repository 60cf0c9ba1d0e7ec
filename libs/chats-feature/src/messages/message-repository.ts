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

/** Message reads of the chats service. The organization is part of every signature. */
export class MessageRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /** Newest first (timestamp, then insertion order), served by the (org_id, chat_id, timestamp, id) index. */
  async listByChat(orgId: string, page: ChatPage): Promise<MessageRow[]> {
    if (page.phoneIds && page.phoneIds.length === 0) return [];
    return this.prisma.message.findMany({
      where: {
        org_id: orgId,
        chat_id: page.chatId,
        ...(page.phoneIds ? { phone_id: page.phoneIds.length === 1 ? page.phoneIds[0] : { in: page.phoneIds } } : {}),
      },
      omit: { id: true, phone_id: true },
      orderBy: [{ timestamp: 'desc' }, { id: 'desc' }],
      skip: page.offset,
      take: page.limit,
    });
  }
}
