export * from './bootstrap';
export * from './queue.handlers';
export * from './config';
