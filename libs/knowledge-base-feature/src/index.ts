export * from './config';
export * from './knowledge-base.handlers';
export * from './bootstrap';
export * from './worker/bootstrap-worker';
