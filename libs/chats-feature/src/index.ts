export * from './bootstrap';
export * from './chats.handlers';
