import { defineEvent } from '../define-event';
import { ChatNotificationSchema } from './notification.schema';

export const ChatNotificationCreatedEvent = defineEvent({
  name: 'chat.notification.created',
  subject: 'events.v1.chat.notification.created',
  summary: 'Something happened in a chat that is not a message: e.g. participants added, removed, promoted or demoted through the API.',
  data: ChatNotificationSchema,
});
