/**
 * @mapi/chats-feature/internals: what bench/ and tests drive below the service's RPC surface (its repositories,
 * use cases and mappers). Apps and other libraries use the index (bootstrap, handler table, config);
 * eslint.config.mjs refuses this entry point outside bench/ and test files.
 */
export { ApplyIngest } from './ingest/apply-ingest.usecase';
export { mapMessage } from './messages/map-message';
export { ChatViewRepository } from './repositories/chat-view-repository';
export { MessageRepository, chatPageSql } from './repositories/message-repository';
export { messageFromJson } from './rows/message-json';
export { ListChatMessages } from './usecases/list-chat-messages/list-chat-messages.usecase';
