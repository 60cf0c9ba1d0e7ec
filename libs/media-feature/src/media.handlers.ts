import { MigrateMediaUrlRpc, MigrateMediaUrlsBatchRpc } from '@mapi/contracts';
import { rpcHandler } from '@mapi/platform';
import type { MediaLinkMigrator } from './links/media-link-migrator';
import type { PublicObjectRepository } from './repositories/public-object-repository';
import type { MediaTokenService } from './tokens/media-token-service';
import { MigrateMediaUrl } from './usecases/migrate-media-url/migrate-media-url.usecase';
import { MigrateMediaUrlsBatch } from './usecases/migrate-media-urls-batch/migrate-media-urls-batch.usecase';

export interface MediaDeps {
  migrator: MediaLinkMigrator;
  tokens: MediaTokenService;
  publicObjects: PublicObjectRepository;
}

const serve = rpcHandler<MediaDeps>();

/** What the media service answers: one line per operation, its contract and its use case. */
export const MEDIA_HANDLERS = [
  serve(MigrateMediaUrlRpc, (d) => new MigrateMediaUrl(d.migrator, d.tokens, d.publicObjects)),
  serve(MigrateMediaUrlsBatchRpc, (d) => new MigrateMediaUrlsBatch(d.migrator, d.tokens, d.publicObjects)),
];
