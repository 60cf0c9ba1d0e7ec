/**
 * @mapi/queue-feature/internals: what bench/ and tests drive below the service's RPC surface (its repositories,
 * use cases and mappers). Apps and other libraries use the index (bootstrap, handler table, config);
 * eslint.config.mjs refuses this entry point outside bench/ and test files.
 */
export { QueuePurger } from './queues/queue-purger';
export { SendQueues } from './queues/send-queues';
export { QueueRebuild } from './record/queue-rebuild';
export { SendRecord } from './record/send-record';
