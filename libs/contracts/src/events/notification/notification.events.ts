import { defineEvent } from '../define-event';
import { ChatNotificationSchema } from './notification.schema';

export const ChatNotificationCreatedEvent = defineEvent({
  name: 'chat.notification.created',
  subject: 'events.v1.chat.notification.created',
  summary:
    'A group notification of the network (participants added, removed, joined, left, promoted or demoted; subject or settings changed), once per notification and phone.',
  data: ChatNotificationSchema,
});
