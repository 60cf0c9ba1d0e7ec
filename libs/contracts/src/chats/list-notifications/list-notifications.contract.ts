import { z } from 'zod';
import { ChatIdSchema } from '../../common/ids';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { ChatNotificationSchema } from '../../events/notification/notification.schema';
import { MAX_PAGE_LIMIT, pageFields, refineTimeRange, timeRangeFields } from '../paging/paging';

/** A stored notification as the routes answer it: the `tbl_chat_notifications` row (NotificationType of @periskope/types). */
export const NotificationSchema = ChatNotificationSchema.omit({ notification_type: true, participants: true, performed_by: true });
export type NotificationView = z.infer<typeof NotificationSchema>;

/**
 * ListNotificationsType of @periskope/types: `{from, to, count, notifictions}`. The key is spelled
 * `notifictions` there (sic), and the public client reads that key: it is kept as spelled.
 */
export const ListNotificationsResponse = z.object({
  from: z.number().int(),
  to: z.number().int(),
  count: z.number().int(),
  notifictions: z.array(NotificationSchema),
});
export type ListNotificationsResponse = z.infer<typeof ListNotificationsResponse>;

export const ListAllNotificationsQuery = z.object({ ...pageFields, ...timeRangeFields }).superRefine(refineTimeRange);
export const ListChatNotificationsParams = z.object({ chat_id: ChatIdSchema });
export const ListChatNotificationsQuery = z.object({ ...pageFields, ...timeRangeFields }).superRefine(refineTimeRange);

export const ListAllNotificationsRpc = defineRpc({
  subject: 'chats.v1.notifications.list-all',
  service: 'chats',
  request: z.object({ ctx: RequestContextSchema, query: ListAllNotificationsQuery }),
  response: ListNotificationsResponse,
});
export const ListChatNotificationsRpc = defineRpc({
  subject: 'chats.v1.notifications.list',
  service: 'chats',
  request: z.object({ ctx: RequestContextSchema, params: ListChatNotificationsParams, query: ListChatNotificationsQuery }),
  response: ListNotificationsResponse,
});
export type ListAllNotificationsRequest = z.infer<typeof ListAllNotificationsRpc.request>;
export type ListChatNotificationsRequest = z.infer<typeof ListChatNotificationsRpc.request>;

const NARROW =
  "Each phone's copy of a notification is its own entry, narrowed to the x-phone phone or the token's phones. " +
  `start_time/end_time (inclusive) bound the notification's timestamp. limit defaults to ${MAX_PAGE_LIMIT}, its maximum (inclusive). ` +
  'The list is under `notifictions`, spelled as ListNotificationsType of @periskope/types spells it.';

export const ListAllNotificationsRoute = defineRoute({
  operationId: 'listAllNotifications',
  method: 'GET',
  path: '/chats/notifications',
  tag: 'chats',
  summary: 'List the group notifications of every chat, newest first',
  description: NARROW,
  query: ListAllNotificationsQuery,
  phone: 'optional',
  rpc: ListAllNotificationsRpc,
  successStatus: 200,
  response: ListNotificationsResponse,
});

export const ListChatNotificationsRoute = defineRoute({
  operationId: 'getNotificationsInAChat',
  method: 'GET',
  path: '/chats/{chat_id}/notifications',
  tag: 'chats',
  summary: 'List the notifications of one chat, newest first',
  description: `${NARROW} A chat no phone within reach has answers an empty page, as GET /chats/{chat_id}/messages does.`,
  params: ListChatNotificationsParams,
  query: ListChatNotificationsQuery,
  phone: 'optional',
  rpc: ListChatNotificationsRpc,
  successStatus: 200,
  response: ListNotificationsResponse,
});
