export * from './bootstrap';
export * from './analytics.handlers';
export * from './rebuild/rebuild-period';
export * from './rebuild/rebuild-cli';
