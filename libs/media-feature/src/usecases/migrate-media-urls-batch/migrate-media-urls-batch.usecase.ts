import type { MigrateMediaUrlResult, MigrateMediaUrlsBatchRequest, MigrateMediaUrlsBatchResponse } from '@mapi/contracts';
import type { ObjectKey } from '@mapi/storage';
import type { MediaLinkMigrator } from '../../links/media-link-migrator';
import { MediaLinkError } from '../../links/media-links';
import type { PublicObjectRepository } from '../../repositories/public-object-repository';
import type { MediaTokenService } from '../../tokens/media-token-service';

/**
 * POST /media/migrate-url/batch (spec 4.9): up to 1000 URLs, each converted or refused on its own
 * (results[i] answers urls[i]). One token is signed for the whole batch and shared by every private
 * link; public files are recorded in one statement.
 */
export class MigrateMediaUrlsBatch {
  constructor(
    private readonly migrator: MediaLinkMigrator,
    private readonly tokens: MediaTokenService,
    private readonly publicObjects: PublicObjectRepository,
  ) {}

  async execute({ ctx, body }: MigrateMediaUrlsBatchRequest): Promise<MigrateMediaUrlsBatchResponse> {
    const policy = await this.migrator.policy(ctx.org_id, body);
    const keys: (ObjectKey | null)[] = [];
    const errors: string[] = [];
    body.urls.forEach((input, index) => {
      try {
        keys[index] = this.migrator.ownedObject(ctx.org_id, input);
      } catch (error) {
        if (!(error instanceof MediaLinkError)) throw error;
        keys[index] = null;
        errors[index] = error.message;
      }
    });
    const owned = keys.filter((k): k is ObjectKey => k !== null);
    let token: string | undefined;
    if (owned.length && policy.access === 'private') token = (await this.tokens.issue(ctx.org_id, policy.expiresInSeconds!)).token;
    if (owned.length && policy.access === 'public') await this.publicObjects.publish(ctx.org_id, owned);

    const link = this.migrator.links.builder(token);
    const results: MigrateMediaUrlResult[] = keys.map((key, index) =>
      key ? { index, success: true, url: link(key) } : { index, success: false, error: errors[index] },
    );
    return {
      results,
      migrated_count: owned.length,
      failed_count: results.length - owned.length,
      access: policy.access,
      ...(policy.access === 'private' ? { expires_in_seconds: policy.expiresInSeconds } : {}),
    };
  }
}
