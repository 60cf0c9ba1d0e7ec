export * from './test-env';
export * from './test-database';
export * from './factories';
export * from './processes';
export * from './use-test-database';
