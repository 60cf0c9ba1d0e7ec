import type { RouteContract } from '../http/define-route';
import { MigrateMediaUrlsBatchRoute } from './migrate-url-batch/migrate-url-batch.contract';
import { MigrateMediaUrlRoute } from './migrate-url/migrate-url.contract';

export * from './common/media-access.schema';
export * from './migrate-url/migrate-url.contract';
export * from './migrate-url-batch/migrate-url-batch.contract';

/** The media service's public routes and messages: one folder per message (<name>/<name>.contract.ts). */
export const MEDIA_ROUTES: readonly RouteContract[] = [MigrateMediaUrlRoute, MigrateMediaUrlsBatchRoute];
