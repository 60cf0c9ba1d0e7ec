import type { PrismaClient } from '@mapi/db';
import type { NotificationRow } from '../notifications/map-notification';

export interface NotificationPage {
  /** Phones whose copies to read; null: every phone of the organization. */
  phoneIds: string[] | null;
  chatId?: string;
  /** ISO 8601 bounds of the notification's timestamp, inclusive. */
  start?: string;
  end?: string;
  offset: number;
  limit: number;
}

/** Notification reads of the chats service. The organization is part of every signature. */
export class NotificationRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /** Newest first (ties: notification_id), by the (org_id, timestamp) or (org_id, chat_id, timestamp) index. */
  async list(orgId: string, page: NotificationPage): Promise<NotificationRow[]> {
    if (page.phoneIds && page.phoneIds.length === 0) return [];
    return this.prisma.$queryRaw<NotificationRow[]>`
      SELECT * FROM chat_notifications
      WHERE org_id = ${orgId}::uuid
        AND (${page.phoneIds === null} OR phone_id = ANY(${page.phoneIds ?? []}::text[]))
        AND (${page.chatId ?? null}::text IS NULL OR chat_id = ${page.chatId ?? null})
        AND (${page.start ?? null}::timestamptz IS NULL OR timestamp >= ${page.start ?? null}::timestamptz)
        AND (${page.end ?? null}::timestamptz IS NULL OR timestamp <= ${page.end ?? null}::timestamptz)
      ORDER BY timestamp DESC, notification_id DESC
      OFFSET ${page.offset} LIMIT ${page.limit}`;
  }
}
