/**
 * @mapi/media-feature/internals: what bench/ and tests drive below the service's RPC surface (its repositories,
 * use cases and mappers). Apps and other libraries use the index (bootstrap, handler table, config);
 * eslint.config.mjs refuses this entry point outside bench/ and test files.
 */
export { MediaLinkMigrator } from './links/media-link-migrator';
export { MediaLinks } from './links/media-links';
export { MediaSettingsRepository } from './repositories/media-settings-repository';
export { PublicObjectRepository } from './repositories/public-object-repository';
export { MediaTokenService } from './tokens/media-token-service';
export { MigrateMediaUrlsBatch } from './usecases/migrate-media-urls-batch/migrate-media-urls-batch.usecase';
