export * from './bootstrap';
export * from './automation.handlers';
