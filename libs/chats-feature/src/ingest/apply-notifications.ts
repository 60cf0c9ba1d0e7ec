import type { IngestEvent } from '@mapi/contracts';
import type { Prisma } from '@mapi/db';
import { notificationEvent } from '../notifications/map-notification';
import type { NotificationRow } from '../rows/notification-row';
import type { OutEvent } from './out-event';

type Tx = Prisma.TransactionClient;
type NotificationsIn = Extract<IngestEvent, { kind: 'group-notifications' }>;

/**
 * Stores a phone's group notifications, each once: (phone_id, chat_id, unique_id = the network's id)
 * is unique and a copy already stored is skipped, so a redelivered event stores nothing and emits
 * nothing. One chat.notification.created per notification stored.
 */
export async function applyNotifications(tx: Tx, e: NotificationsIn, out: OutEvent[]): Promise<void> {
  if (!e.notifications.length) return;
  const n = e.notifications;
  const rows = await tx.$queryRaw<NotificationRow[]>`
    INSERT INTO chat_notifications (org_id, phone_id, org_phone, chat_id, type, author, recipientids, body, unique_id, timestamp)
    SELECT ${e.org_id}::uuid, ${e.phone_id}, ${e.org_phone}, x.chat_id, x.type, x.author, ARRAY(SELECT jsonb_array_elements_text(x.recipients)), x.body, x.unique_id, x.at
    FROM unnest(${n.map((x) => x.chat_id)}::text[], ${n.map((x) => x.type)}::text[], ${n.map((x) => x.author)}::text[],
                ${n.map((x) => JSON.stringify(x.recipients))}::jsonb[], ${n.map((x) => x.body)}::text[], ${n.map((x) => x.id)}::text[],
                ${n.map((x) => x.timestamp)}::timestamptz[]) AS x(chat_id, type, author, recipients, body, unique_id, at)
    ON CONFLICT (phone_id, chat_id, unique_id) DO NOTHING
    RETURNING *`;
  for (const row of rows)
    out.push({ type: 'chat.notification.created', org_id: row.org_id, phone_id: row.phone_id, data: notificationEvent(row) });
}
