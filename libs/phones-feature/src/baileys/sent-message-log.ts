import type { PrismaClient } from '@mapi/db';

export interface SentMessage {
  unique_id: string;
  sent_at: Date;
}

/** Sends already made, by their id (the queue job): a retried send returns the first one. */
export interface SentMessageLog {
  find(phoneId: string, sentMessageId: string): Promise<SentMessage | null>;
  record(phoneId: string, sentMessageId: string, chatId: string, sent: SentMessage): Promise<void>;
}

export class PrismaSentMessageLog implements SentMessageLog {
  constructor(private readonly prisma: PrismaClient) {}

  find(phoneId: string, sentMessageId: string): Promise<SentMessage | null> {
    return this.prisma.baileysSentMessage.findUnique({
      where: { phone_id_sent_message_id: { phone_id: phoneId, sent_message_id: sentMessageId } },
      select: { unique_id: true, sent_at: true },
    });
  }

  async record(phoneId: string, sentMessageId: string, chatId: string, sent: SentMessage): Promise<void> {
    await this.prisma.baileysSentMessage.createMany({
      data: [{ phone_id: phoneId, sent_message_id: sentMessageId, chat_id: chatId, unique_id: sent.unique_id, sent_at: sent.sent_at }],
      skipDuplicates: true,
    });
  }
}
