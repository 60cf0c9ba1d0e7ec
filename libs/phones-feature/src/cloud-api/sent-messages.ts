import type { Prisma, PrismaClient } from '@mapi/db';

export interface SentRow {
  sent_message_id: string;
  chat_id: string;
  unique_id: string;
  wamid: string;
  sent_at: Date;
}

/**
 * Sends of a Cloud API phone (cloud_api_sent_messages), keyed by the phone (a session and its
 * webhook work on their own phone's rows): the queue job's id → our unique_id and Meta's wamid.
 */
export class SentMessages {
  constructor(private readonly prisma: PrismaClient) {}

  find(phoneId: string, sentMessageId: string): Promise<SentRow | null> {
    return this.prisma.cloudApiSentMessage.findUnique({
      where: { phone_id_sent_message_id: { phone_id: phoneId, sent_message_id: sentMessageId } },
    });
  }

  async record(phoneId: string, row: SentRow): Promise<void> {
    await this.prisma.cloudApiSentMessage.createMany({ data: [{ phone_id: phoneId, ...row }], skipDuplicates: true });
  }

  /** Our message of each known wamid (unknown ones were not sent through this service). */
  async byWamids(phoneId: string, wamids: string[]): Promise<Map<string, SentRow>> {
    if (wamids.length === 0) return new Map();
    const rows = await this.prisma.cloudApiSentMessage.findMany({ where: { phone_id: phoneId, wamid: { in: wamids } } });
    return new Map(rows.map((r) => [r.wamid, r]));
  }

  /** Meta's id of the phone's own message `uniqueId`, if it was sent through this service. */
  async wamidOf(phoneId: string, uniqueId: string): Promise<string | null> {
    const row = await this.prisma.cloudApiSentMessage.findFirst({
      where: { phone_id: phoneId, unique_id: uniqueId },
      select: { wamid: true },
    });
    return row?.wamid ?? null;
  }

  /** A `failed` status: Meta's errors kept on the send. */
  async markFailed(phoneId: string, wamid: string, errors: Prisma.InputJsonValue): Promise<void> {
    await this.prisma.cloudApiSentMessage.updateMany({ where: { phone_id: phoneId, wamid }, data: { status: 'failed', error: errors } });
  }
}
