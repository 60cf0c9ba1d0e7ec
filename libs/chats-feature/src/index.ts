export * from './bootstrap';
export * from './chats.handlers';
export * from './messages/map-message';
export * from './rows/message-row';
export * from './repositories/message-repository';
export * from './rows/message-json';
export * from './usecases/list-chat-messages/list-chat-messages.usecase';
export * from './rows/chat-rows';
export * from './repositories/chat-view-repository';
export * from './chats/map-chat';
export * from './chats/chat-views';
// bench/chats/changes-ingest.js measures the ingestion use case on its own (the service runs it from bootstrap).
export { ApplyIngest } from './ingest/apply-ingest.usecase';
