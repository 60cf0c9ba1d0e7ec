export * from './private-postgres';
export * from './private-nats';
export * from './private-redis';
