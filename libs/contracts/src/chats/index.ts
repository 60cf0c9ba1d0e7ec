import type { RouteContract } from '../http/define-route';
import { GetChatRoute } from './get-chat/get-chat.contract';
import { ListAllMessagesRoute } from './list-all-messages/list-all-messages.contract';
import { ListChatsRoute } from './list-chats/list-chats.contract';
import { ListReactionsRoute } from './list-reactions/list-reactions.contract';
import { ListChatMessagesRoute } from './list-messages/list-messages.contract';
import { ReadChatRoute } from './read-chat/read-chat.contract';
import { ListAllNotificationsRoute, ListChatNotificationsRoute } from './list-notifications/list-notifications.contract';

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

/** The chats service's public routes (the gateway serves every route of every service's list). */
export const CHATS_ROUTES: readonly RouteContract[] = [ListChatMessagesRoute, ListAllMessagesRoute, ListChatsRoute, GetChatRoute, ReadChatRoute, ListReactionsRoute, ListAllNotificationsRoute, ListChatNotificationsRoute];
