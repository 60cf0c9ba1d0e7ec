import { pagePositions, type ListAllNotificationsRequest, type ListNotificationsResponse } from '@mapi/contracts';
import { chatReach } from '../../rows/chat-reach';
import { mapNotification } from '../../notifications/map-notification';
import type { NotificationRepository } from '../../repositories/notification-repository';

/**
 * GET /chats/notifications: the group notifications of every chat within reach (x-phone, or the
 * token's phones), newest first, paged and time-bounded as GET /chats/messages is. Each phone's copy
 * is its own entry.
 */
export class ListNotifications {
  constructor(private readonly notifications: NotificationRepository) {}

  async execute({ ctx, query }: ListAllNotificationsRequest): Promise<ListNotificationsResponse> {
    const rows = await this.notifications.list(ctx.org_id, {
      ...chatReach(ctx),
      start: query.start_time,
      end: query.end_time,
      offset: query.offset,
      limit: query.limit,
    });
    return { ...pagePositions(query.offset, rows.length), notifictions: rows.map(mapNotification) };
  }
}
