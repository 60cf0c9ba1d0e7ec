export * from './bootstrap';
export * from './chats.handlers';
export * from './messages/map-message';
export * from './repositories/message-repository';
export * from './usecases/list-chat-messages/list-chat-messages.usecase';
