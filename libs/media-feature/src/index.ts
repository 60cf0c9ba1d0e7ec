export * from './bootstrap';
export * from './media.handlers';
export * from './config';
