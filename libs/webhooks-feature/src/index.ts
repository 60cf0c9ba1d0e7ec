export * from './bootstrap';
export * from './webhooks.handlers';
export * from './config';
