export * from './test-env';
export * from './test-database';
export * from './factories';
export * from './processes';
export * from './use-test-database';
export * from './s3-server';
export * from './documents';
export * from './phone-directory';
