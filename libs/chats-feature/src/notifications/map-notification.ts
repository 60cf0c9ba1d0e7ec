import type { ChatNotification, NotificationView } from '@mapi/contracts';
import type { NotificationRow } from '../rows/notification-row';

/** A stored notification as the API answers it: the tbl_chat_notifications columns (NotificationType). */
export function mapNotification(row: NotificationRow): NotificationView {
  return {
    notification_id: row.notification_id,
    chat_id: row.chat_id,
    org_id: row.org_id,
    org_phone: row.org_phone,
    type: row.type,
    author: row.author,
    recipientids: row.recipientids,
    body: row.body,
    id: null,
    metadata: null,
    unique_id: row.unique_id,
    timestamp: row.timestamp.toISOString(),
  };
}

/**
 * The chat.notification.created event's object: the notification, plus `notification_type`
 * (`group.<type>`), `participants` (= recipientids) and `performed_by` (= author), which the event
 * carried before it had the tbl_chat_notifications shape.
 */
export function notificationEvent(row: NotificationRow): ChatNotification {
  return { ...mapNotification(row), notification_type: `group.${row.type}`, participants: row.recipientids, performed_by: row.author };
}
