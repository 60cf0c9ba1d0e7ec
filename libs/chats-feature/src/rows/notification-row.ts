import type { Prisma } from '@mapi/db';

/** A stored notification, as `chat_notifications` holds it. */
export type NotificationRow = Prisma.ChatNotificationModel;
