import { Controller, Inject } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { MigrateMediaUrlRpc, MigrateMediaUrlsBatchRpc, type MigrateMediaUrlRequest, type MigrateMediaUrlsBatchRequest } from '@mapi/contracts';
import { MigrateMediaUrl } from './usecases/migrate-media-url/migrate-media-url.usecase';
import { MigrateMediaUrlsBatch } from './usecases/migrate-media-urls-batch/migrate-media-urls-batch.usecase';

/** NATS handlers of the media service; requests arrive validated against their contracts. */
@Controller()
export class MediaController {
  constructor(
    @Inject(MigrateMediaUrl) private readonly migrateOne: MigrateMediaUrl,
    @Inject(MigrateMediaUrlsBatch) private readonly migrateBatch: MigrateMediaUrlsBatch,
  ) {}

  @MessagePattern(MigrateMediaUrlRpc.subject)
  migrateUrl(request: MigrateMediaUrlRequest) {
    return this.migrateOne.execute(request);
  }

  @MessagePattern(MigrateMediaUrlsBatchRpc.subject)
  migrateUrls(request: MigrateMediaUrlsBatchRequest) {
    return this.migrateBatch.execute(request);
  }
}
