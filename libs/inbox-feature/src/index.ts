export * from './bootstrap';
export * from './inbox.handlers';
