import { defineEvent } from '../define-event';
import { ChatSchema, ChatWithPropertiesSchema } from './chat.schema';

export const ChatCreatedEvent = defineEvent({
  name: 'chat.created',
  subject: 'events.v1.chat.created',
  summary: 'A phone saw a chat for the first time (a message in it, or the network listing it).',
  data: ChatSchema,
});

export const ChatCustomPropertiesUpdatedEvent = defineEvent({
  name: 'chat.custom_properties.updated',
  subject: 'events.v1.chat.custom_properties.updated',
  summary: "A chat's custom property values changed (PATCH /chats/{chat_id}); previous_attributes holds custom_properties before.",
  data: ChatWithPropertiesSchema,
});

export const ChatLabelUpdatedEvent = defineEvent({
  name: 'chat.label.updated',
  subject: 'events.v1.chat.label.updated',
  summary: "A chat's labels changed (PATCH /chats/labels, PATCH /chats/{chat_id}); previous_attributes holds label_ids before.",
  data: ChatWithPropertiesSchema,
});
