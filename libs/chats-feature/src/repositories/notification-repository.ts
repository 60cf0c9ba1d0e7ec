import type { PrismaClient } from '@mapi/db';
import { reachSql, reachesNothing, type MemberChatAccess } from '../rows/chat-reach';
import type { NotificationRow } from '../rows/notification-row';

export interface NotificationPage {
  /** Phones whose copies to read; null: every phone of the organization. */
  phoneIds: string[] | null;
  /** A member's labels and overrides (rows/chat-reach.ts); absent: phones only. */
  member?: MemberChatAccess | null;
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
    const reach = { phoneIds: page.phoneIds, member: page.member ?? null };
    if (reachesNothing(reach)) return [];
    return this.prisma.$queryRaw<NotificationRow[]>`
      SELECT n.* FROM chat_notifications n
      WHERE n.org_id = ${orgId}::uuid ${reachSql(orgId, reach, 'n')}
        AND (${page.chatId ?? null}::text IS NULL OR n.chat_id = ${page.chatId ?? null})
        AND (${page.start ?? null}::timestamptz IS NULL OR n.timestamp >= ${page.start ?? null}::timestamptz)
        AND (${page.end ?? null}::timestamptz IS NULL OR n.timestamp <= ${page.end ?? null}::timestamptz)
      ORDER BY n.timestamp DESC, n.notification_id DESC
      OFFSET ${page.offset} LIMIT ${page.limit}`;
  }
}
