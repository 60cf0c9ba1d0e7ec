import { pagePositions, type ListChatNotificationsRequest, type ListNotificationsResponse } from '@mapi/contracts';
import { chatReach } from '../../rows/chat-reach';
import { mapNotification } from '../../notifications/map-notification';
import type { NotificationRepository } from '../../repositories/notification-repository';

/**
 * GET /chats/{chat_id}/notifications: one chat's group notifications within reach, newest first. A
 * chat with none within reach (missing, or another organization's) is an empty page, as GET
 * /chats/{chat_id}/messages answers.
 */
export class ListChatNotifications {
  constructor(private readonly notifications: NotificationRepository) {}

  async execute({ ctx, params, query }: ListChatNotificationsRequest): Promise<ListNotificationsResponse> {
    const rows = await this.notifications.list(ctx.org_id, {
      ...chatReach(ctx),
      chatId: params.chat_id,
      start: query.start_time,
      end: query.end_time,
      offset: query.offset,
      limit: query.limit,
    });
    return { ...pagePositions(query.offset, rows.length), notifictions: rows.map(mapNotification) };
  }
}
