import type { RouteContract } from '../http/define-route';
import { ListChatMessagesRoute } from './list-messages/list-messages.contract';

export * from './message/message.schema';
export * from './list-messages/list-messages.contract';
export * from './choose-phone/choose-phone.contract';

/** The chats service's public routes (the gateway serves every route of every service's list). */
export const CHATS_ROUTES: readonly RouteContract[] = [ListChatMessagesRoute];
