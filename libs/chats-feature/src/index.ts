export * from './bootstrap';
export * from './chats.handlers';
export * from './messages/map-message';
export * from './repositories/message-repository';
export * from './usecases/list-chat-messages/list-chat-messages.usecase';
export * from './repositories/chat-view-repository';
export * from './chats/map-chat';
export * from './chats/chat-views';
