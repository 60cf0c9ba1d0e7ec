import { defineEvent } from '../define-event';
import { ChatSchema, ChatWithCustomPropertiesSchema } from './chat.schema';

export const ChatCreatedEvent = defineEvent({
  name: 'chat.created',
  subject: 'events.v1.chat.created',
  summary: 'A phone saw a chat for the first time (a message in it, or the network listing it).',
  data: ChatSchema,
});

export const ChatCustomPropertiesUpdatedEvent = defineEvent({
  name: 'chat.custom_properties.updated',
  subject: 'events.v1.chat.custom_properties.updated',
  summary: 'A chat\'s custom property values changed. Not emitted by this service yet.',
  data: ChatWithCustomPropertiesSchema,
});
