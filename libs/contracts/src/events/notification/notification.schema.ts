import { z } from 'zod';

/**
 * A chat notification (a group's membership or settings changed): the columns of
 * `tbl_chat_notifications` (@periskope/types), every one present, null where there is no value.
 * The event also carries, from before this shape was written down, `notification_type`
 * (`group.<type>`), `participants` (= recipientids) and `performed_by` (= author); the routes
 * (GET /chats/notifications) answer the columns only.
 */
export const ChatNotificationSchema = z.object({
  notification_id: z.string(),
  chat_id: z.string().nullable(),
  org_id: z.uuid(),
  org_phone: z.string(),
  /** create | add | remove | leave | invite | promote | demote | subject | description | announce | restrict */
  type: z.string().nullable(),
  /** Contact id of who made the change. */
  author: z.string().nullable(),
  /** Contact ids the change was about. */
  recipientids: z.array(z.string()).nullable(),
  body: z.string().nullable(),
  id: z.unknown().nullable(),
  metadata: z.unknown().nullable(),
  unique_id: z.string().nullable(),
  /** ISO 8601 */
  timestamp: z.string().nullable(),
  notification_type: z.string().optional(),
  participants: z.array(z.string()).optional(),
  performed_by: z.string().nullable().optional(),
});
export type ChatNotification = z.infer<typeof ChatNotificationSchema>;
