import { ListChatMessagesRoute } from './chats/list-messages/list-messages.contract';
import type { RouteContract } from './http/define-route';

/** Every public route the gateway serves; the OpenAPI document is generated from this list. */
export const ROUTES: readonly RouteContract[] = [ListChatMessagesRoute];
