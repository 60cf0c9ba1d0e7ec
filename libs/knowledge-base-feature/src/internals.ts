/**
 * @mapi/knowledge-base-feature/internals: what bench/ and tests drive below the service's RPC surface (its repositories,
 * use cases and mappers). Apps and other libraries use the index (bootstrap, handler table, config);
 * eslint.config.mjs refuses this entry point outside bench/ and test files.
 */
export { OfflineHashEmbedder } from './embedding/offline-hash-embedder';
export { EMBEDDING_QUEUE } from './jobs/embedding-queue';
export { KbEntryRepository } from './repositories/kb-entry-repository';
export { orgIndexName } from './repositories/kb-org-index-repository';
