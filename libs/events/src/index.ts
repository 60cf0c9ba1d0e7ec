export * from './jetstream';
export * from './outbox';
