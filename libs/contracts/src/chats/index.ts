import type { RouteContract } from '../http/define-route';
import { GetChatRoute } from './get-chat/get-chat.contract';
import { ListAllMessagesRoute } from './list-all-messages/list-all-messages.contract';
import { ListChatsRoute } from './list-chats/list-chats.contract';
import { ListReactionsRoute } from './list-reactions/list-reactions.contract';
import { ListChatMessagesRoute } from './list-messages/list-messages.contract';
import { ReadChatRoute } from './read-chat/read-chat.contract';
import { ListAllNotificationsRoute, ListChatNotificationsRoute } from './list-notifications/list-notifications.contract';
import { CONTACTS_ROUTES } from './contacts/contacts-routes';
import { GetMessageRoute } from './get-message/get-message.contract';
import { FlagMessageRoute } from './flag-message/flag-message.contract';
import { EditMessageRoute } from './edit-message/edit-message.contract';
import { DeleteMessageRoute } from './delete-message/delete-message.contract';
import { ForwardMessageRoute } from './forward-message/forward-message.contract';
import { ReactMessageRoute } from './react-message/react-message.contract';
import { PinMessageRoute } from './pin-message/pin-message.contract';

export * from './message/message.schema';
export * from './chat/chat-view.schema';
export * from './paging/paging';
export * from './list-messages/list-messages.contract';
export * from './list-all-messages/list-all-messages.contract';
export * from './list-chats/list-chats.contract';
export * from './get-chat/get-chat.contract';
export * from './read-chat/read-chat.contract';
export * from './list-reactions/list-reactions.contract';
export * from './choose-phone/choose-phone.contract';
export * from './list-notifications/list-notifications.contract';
export * from './contacts';
export * from './message-ref/message-ref';
export * from './get-message/get-message.contract';
export * from './edit-message/edit-message.contract';
export * from './delete-message/delete-message.contract';
export * from './forward-message/forward-message.contract';
export * from './react-message/react-message.contract';
export * from './pin-message/pin-message.contract';
export * from './attach-ticket/attach-ticket.contract';
export * from './flag-message/flag-message.contract';
export * from './chat-properties/chat-properties.contract';
export * from './chat-properties/chat-copies-in-reach';
export * from './chat-counts/chat-counts.contract';
export * from './chat-counts/chat-counts';
export * from './import-contacts/import-contacts.contract';
export * from './import-chats/import-chats.contract';
export * from './import-messages/import-messages.contract';
export * from './import-reactions/import-reactions.contract';

/** The chats service's public routes (the gateway serves every route of every service's list). */
export const CHATS_ROUTES: readonly RouteContract[] = [
  ListChatMessagesRoute,
  ListAllMessagesRoute,
  ListChatsRoute,
  GetChatRoute,
  ReadChatRoute,
  ListReactionsRoute,
  ...CONTACTS_ROUTES,
  // message actions (GET /message/{message_id}, POST /message/{message_id}/<action>)
  GetMessageRoute,
  EditMessageRoute,
  DeleteMessageRoute,
  ForwardMessageRoute,
  ReactMessageRoute,
  PinMessageRoute,
  FlagMessageRoute,
  // group notifications (GET /chats/notifications, GET /chats/{chat_id}/notifications)
  ListAllNotificationsRoute,
  ListChatNotificationsRoute,
];
